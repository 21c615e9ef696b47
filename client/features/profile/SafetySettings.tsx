import { Spinner } from '#client/ui/Spinner';
import { useSafetyActions } from '#client/ui/safety/useSafety';
import { useSafetyLists } from './api/useSafetyLists';
import type { SafetyListRow } from './safety-rows';

/** "Blocked accounts" and "Muted accounts" on /profile, each row with Unblock or Unmute. */
export function SafetySettings() {
  const lists = useSafetyLists();
  const safety = useSafetyActions();
  return (
    <>
      <section className="profile-section" aria-labelledby="blocked-title">
        <h2 id="blocked-title">Blocked accounts</h2>
        <p className="muted">They can't see your videos or interact with you, and you don't see theirs.</p>
        <SafetyList rows={lists?.blocked} label="Blocked accounts" empty="You haven't blocked anyone." action="Unblock" onAction={safety.unblock} />
      </section>
      <section className="profile-section" aria-labelledby="muted-title">
        <h2 id="muted-title">Muted accounts</h2>
        <p className="muted">Their videos stay out of your feeds and their comments are collapsed. They are not told.</p>
        <SafetyList rows={lists?.muted} label="Muted accounts" empty="You haven't muted anyone." action="Unmute" onAction={safety.unmute} />
      </section>
    </>
  );
}

interface ListProps {
  rows: SafetyListRow[] | undefined;
  label: string;
  empty: string;
  action: 'Unblock' | 'Unmute';
  onAction(userId: string): void;
}

function SafetyList({ rows, label, empty, action, onAction }: ListProps) {
  if (!rows) return <Spinner label={`Loading ${label.toLowerCase()}`} />;
  if (rows.length === 0) return <p className="card empty-text">{empty}</p>;
  return (
    <ul className="card safety-list" aria-label={label}>
      {rows.map((r) => (
        <li key={r.userId} className="safety-row">
          <span className="safety-who">
            <span className="safety-name">{r.label}</span>
            {r.handle && r.handle !== r.label ? <span className="muted"> {r.handle}</span> : null}
          </span>
          <button type="button" className="button secondary" onClick={() => onAction(r.userId)}>
            {action}
          </button>
        </li>
      ))}
    </ul>
  );
}
