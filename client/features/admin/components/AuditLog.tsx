import { useAdminAudit, type AuditEntry } from '../api';
import { Pager } from './Pager';
import { AdminTable, ListStatus } from './admin-parts';

const ACTIONS: Record<string, string> = {
  'user.suspend': 'Suspended a user',
  'user.reactivate': 'Reactivated a user',
  'user.delete': 'Deleted a user',
  'video.delete': 'Deleted a video',
  'comment.delete': "Deleted a member's comment",
  'rewards.update': 'Updated the rewards',
  'rewards.void': "Voided a member's points",
  'settings.update': 'Updated the settings',
  'rewards.distribute': 'Recorded a distribution',
  'report.resolve': 'Resolved the reports of a target',
  'hashtag.hide': 'Hid a hashtag',
  'hashtag.unhide': 'Showed a hidden hashtag again',
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
      <ListStatus
        error={list.error}
        loading={list.loading && !list.data}
        empty={items.length === 0}
        loadingLabel="Loading the audit log"
        emptyText="No admin actions yet."
      >
        <AdminTable caption="Audit log" columns={['When', 'Who', 'What', 'Target']}>
          {items.map((e) => (
            <tr key={e.id}>
              <td>{when.format(new Date(e.created_at))}</td>
              <td>{e.actor_name ?? 'Deleted admin'}</td>
              <td>{ACTIONS[e.action] ?? e.action}</td>
              <td className="audit-target">{targetOf(e)}</td>
            </tr>
          ))}
        </AdminTable>
      </ListStatus>
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
