import { Link } from '@tanstack/react-router';
import { initialOf } from '#client/lib/format';
import type { PersonItem } from '#client/lib/people';
import { FollowButton } from './FollowButton';
import './people.css';

interface Props {
  people: PersonItem[];
  /** The signed-in member: no Follow button on their own row. */
  meId: string | null;
  label: string;
}

/** People as rows: avatar, name and @handle linking to their page, and a Follow button. */
export function PersonList({ people, meId, label }: Props) {
  return (
    <ul className="person-list" aria-label={label}>
      {people.map((p) => (
        <li key={p.id} className="person-row">
          <span className="avatar" aria-hidden="true">
            {initialOf(p.name)}
          </span>
          <Link to="/@{$handle}" params={{ handle: p.handle }} className="person-link">
            <span className="person-name">{p.name}</span>
            <span className="person-handle muted">@{p.handle}</span>
          </Link>
          {p.id === meId ? null : <FollowButton userId={p.id} name={p.name} initial={p.viewer.following} />}
        </li>
      ))}
    </ul>
  );
}
