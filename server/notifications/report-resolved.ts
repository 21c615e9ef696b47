import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { notifications } from '#sync/entities/registry';
import type { ReportAction } from '#sync/rest-api/moderation';
import type { ReportTargetType } from '#sync/protocol/report-reasons';
import type { Changes } from '../changes/changes';
import { derivedNotificationId, dueNow } from './create';

// The reporters of a target hear what came of their reports (docs/moderation.md): one notification
// each, saying what happened and never who decided. Its words are the notification's detail.

const THING: Record<ReportTargetType, string> = { video: 'video', comment: 'comment', member: 'account' };

/** "We removed the video you reported", "We reviewed your report and took no action". */
export function reportOutcome(targetType: ReportTargetType, action: ReportAction): string {
  if (action === 'dismiss') return 'We reviewed your report and took no action';
  if (action === 'remove') return `We removed the ${THING[targetType]} you reported`;
  return targetType === 'member' ? 'We suspended the account you reported' : `We suspended the account that posted the ${THING[targetType]} you reported`;
}

/**
 * One notification to each reporter of the queue entry `entryId`. Its id is derived from the entry
 * and the reporter: an entry is resolved once, so each reporter is told once.
 */
export async function notifyReportResolved(
  trx: Transaction<Database>,
  changes: Changes,
  r: { entryId: string; reporterIds: readonly string[]; targetType: ReportTargetType; action: ReportAction },
): Promise<void> {
  const now = changes.now;
  const detail = reportOutcome(r.targetType, r.action);
  const rows = [...new Set(r.reporterIds)].map((userId) => ({
    id: derivedNotificationId('report_resolved', `${r.entryId}:${userId}`),
    user_id: userId,
    kind: 'report_resolved',
    count: 1,
    detail,
    created_at: now,
    updated_at: now,
    push_due_at: now,
  }));
  if (!rows.length) return;
  await trx
    .insertInto('notifications')
    .values(rows)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  for (const row of rows) changes.row(notifications, { id: row.id, user_id: row.user_id, read_at: null });
  dueNow(changes);
}
