import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import './tabs.css';

export interface TabDef<K extends string> {
  key: K;
  label: string;
}

/**
 * WAI-ARIA tabs: one tab stop for the whole list, arrow keys / Home / End move between tabs and
 * select them, and each panel is labelled by its tab.
 */
export function Tabs<K extends string>({
  tabs,
  selected,
  onSelect,
  label,
  className,
  children,
}: {
  tabs: Array<TabDef<K>>;
  selected: K;
  onSelect(key: K): void;
  label: string;
  /** The wrapper's class, for the screen's own spacing. */
  className?: string;
  children: ReactNode;
}) {
  const base = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const index = tabs.findIndex((t) => t.key === selected);

  const onKeyDown = (e: KeyboardEvent) => {
    const last = tabs.length - 1;
    const to =
      e.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (index + last) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : -1;
    const tab = tabs[to];
    if (!tab) return;
    e.preventDefault();
    onSelect(tab.key);
    refs.current.get(tab.key)?.focus();
  };

  return (
    <div className={className}>
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.key}
            ref={(el) => {
              if (el) refs.current.set(t.key, el);
              else refs.current.delete(t.key);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.key}`}
            aria-selected={t.key === selected}
            aria-controls={`${base}-panel`}
            tabIndex={t.key === selected ? 0 : -1}
            className="tab"
            onClick={() => onSelect(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`} className="tab-panel" tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
