import { useAdminAudit, type AuditEntry } from '../api';
import { Pager } from './Pager';
import { Spinner } from '#client/ui/Spinner';

const ACTIONS: Record<string, string> = {
  'user.suspend': 'Suspended a user',
  'user.reactivate': 'Reactivated a user',
  'user.delete': 'Deleted a user',
  'video.delete': 'Deleted a video',
  'rewards.update': 'Updated the rewards',
  'rewards.void': "Voided a member's points",
  'settings.update': 'Updated the settings',
  'rewards.distribute': 'Recorded a distribution',
};

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function targetOf(e: AuditEntry): string {
  const email = e.details?.email;
  if (typeof email === 'string') return email;
  return e.target && e.target !== 'settings' && e.target !== 'rewards' ? e.target : '';
}

/** Who did what, and when: every admin action, newest first (read-only). */
export function AuditLog() {
  const list = useAdminAudit();
  const items = list.data?.items ?? [];
  return (
    <section aria-labelledby="audit-title" className="admin-section audit-log">
      <h2 id="audit-title">Audit log</h2>
      {list.error ? (
        <p className="notice error" role="alert">
          {list.error}
        </p>
      ) : null}
      {list.loading && !list.data ? (
        <Spinner label="Loading the audit log" />
      ) : items.length === 0 ? (
        <p className="empty-text">No admin actions yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <caption className="sr-only">Audit log</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Target</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id}>
                  <td>{when.format(new Date(e.created_at))}</td>
                  <td>{e.actor_name ?? 'Deleted admin'}</td>
                  <td>{ACTIONS[e.action] ?? e.action}</td>
                  <td className="audit-target">{targetOf(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Audit log"
        pageNumber={list.pageNumber}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onPrevious={list.previous}
        onNext={list.next}
      />
    </section>
  );
}
