import { useId } from 'react';

/** A native checkbox announced as a switch: Space toggles it, the label and caption name and describe it. */
export function Switch(props: { label: string; caption: string; checked: boolean; disabled?: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="switch-row">
      <div className="switch-text">
        <label htmlFor={id}>{props.label}</label>
        <p id={`${id}-caption`} className="muted">
          {props.caption}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={`${id}-caption`}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
    </div>
  );
}
