import type { MentionCandidate } from './mention-suggest';

export const optionId = (listId: string, i: number) => `${listId}-option-${i}`;

interface Props {
  id: string;
  options: MentionCandidate[];
  active: number;
  onPick(p: MentionCandidate): void;
  onHover(i: number): void;
}

/** The listbox of handles under the composer; the input keeps focus (aria-activedescendant names the active one). */
export function MentionSuggestions({ id, options, active, onPick, onHover }: Props) {
  return (
    <ul className="mention-list" role="listbox" id={id} aria-label="People you follow">
      {options.map((p, i) => (
        <li
          key={p.id}
          id={optionId(id, i)}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'active' : undefined}
          // Picked on click; the press itself must not take focus from the input.
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => onHover(i)}
          onClick={() => onPick(p)}
        >
          <span className="mention-handle">@{p.handle}</span> <span className="mention-name">{p.name}</span>
        </li>
      ))}
    </ul>
  );
}
