import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { ReportTargetType } from '#sync/protocol/report-reasons';
import type { ReportAction, ReportSnapshot } from '#sync/rest-api/moderation';
import type { Changes } from '../changes/changes';
import { notFound } from '../http/errors';
import { notifyReportResolved } from '../notifications/report-resolved';

// Closing a target's queue entry and every open report of it at once (POST /api/admin/reports/resolve,
// server/admin/reports-routes.ts, which carries out the action itself), in the resolve's transaction.

type Trx = Transaction<Database>;

export interface OpenEntry {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  snapshot: ReportSnapshot;
}

/**
 * Closes the target's open entry, first of all: two admins resolving it at once, the second waits
 * for the first's row and then finds nothing open (404). A report sent meanwhile opens a new entry.
 */
export async function closeOpenEntry(
  trx: Trx,
  e: { targetType: ReportTargetType; targetId: string; action: ReportAction; note?: string | undefined },
  now: number,
): Promise<OpenEntry> {
  const row = await trx
    .updateTable('report_targets')
    .set({ state: e.action === 'dismiss' ? 'dismissed' : 'actioned', resolved_at: now, resolution_note: e.note || null })
    .where('target_type', '=', e.targetType)
    .where('target_id', '=', e.targetId)
    .where('state', '=', 'open')
    .returning(['id', 'snapshot'])
    .executeTakeFirst();
  if (!row) throw notFound('Nothing is open about this: it was resolved already or never reported.', 'no_open_reports');
  return { id: row.id, targetType: e.targetType, targetId: e.targetId, snapshot: JSON.parse(row.snapshot) as ReportSnapshot };
}

/** Every open report of the entry's target takes the entry's outcome; each reporter is told what happened. Returns how many. */
export async function closeReports(trx: Trx, changes: Changes, entry: OpenEntry, action: ReportAction): Promise<number> {
  const closed = await trx
    .updateTable('reports')
    .set({ state: action === 'dismiss' ? 'dismissed' : 'actioned', resolved_at: changes.now })
    .where('target_type', '=', entry.targetType)
    .where('target_id', '=', entry.targetId)
    .where('state', '=', 'open')
    .returning('reporter_id')
    .execute();
  const reporterIds = closed.map((r) => r.reporter_id);
  await notifyReportResolved(trx, changes, { entryId: entry.id, reporterIds, targetType: entry.targetType, action });
  return closed.length;
}
