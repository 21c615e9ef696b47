import { sql, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { MutationError } from '#sync/protocol/error-codes';
import { MAX_REPORTS_PER_DAY, type ReportReason, type ReportTargetType } from '#sync/protocol/report-reasons';
import { liveTarget } from './targets';

// The server's part of `report` (sync/mutations/report.ts does nothing on the device), in the push's
// transaction. Nothing reaches the member reported: no notification, no change they pull.

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReportArgs {
  reportId: string;
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  note?: string | undefined;
}

/** The same report sent again (another device, a replay) or a second open one of the target by this member. */
async function alreadyReported(trx: Transaction<Database>, reporterId: string, a: ReportArgs): Promise<boolean> {
  const row = await trx
    .selectFrom('reports')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('id', '=', a.reportId),
        eb.and([eb('reporter_id', '=', reporterId), eb('target_type', '=', a.targetType), eb('target_id', '=', a.targetId), eb('state', '=', 'open')]),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** Reports by this member in the 24 hours before `now`, on reports_reporter_day. */
async function reportsToday(trx: Transaction<Database>, reporterId: string, now: number): Promise<number> {
  const row = await trx
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('reporter_id', '=', reporterId)
    .where('created_at', '>', now - DAY_MS)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Records a member's report: the target must still be there (`not_found`), at most MAX_REPORTS_PER_DAY
 * in any 24 hours (`limit`), and a second open report of one target by one member changes nothing.
 * The queue entry (report_targets) is opened by the target's first open report, keeping the evidence
 * as it was then, and counts each one after. A member's pushes are serialized (push-postgres.ts locks
 * the member; SQLite has one writer), so the checks above hold to the insert.
 */
export async function recordReport(trx: Transaction<Database>, reporterId: string, a: ReportArgs, now: number): Promise<void> {
  const target = await liveTarget(trx, a.targetType, a.targetId);
  if (!target) throw new MutationError('not_found', 'That is no longer there.');
  if (await alreadyReported(trx, reporterId, a)) return;
  if ((await reportsToday(trx, reporterId, now)) >= MAX_REPORTS_PER_DAY) {
    throw new MutationError('limit', `You can send up to ${MAX_REPORTS_PER_DAY} reports a day.`);
  }
  const snapshot = JSON.stringify(target.snapshot);
  await trx
    .insertInto('reports')
    .values({
      id: a.reportId,
      reporter_id: reporterId,
      target_type: a.targetType,
      target_id: a.targetId,
      reason: a.reason,
      note: a.note || null,
      snapshot,
      created_at: now,
    })
    .execute();
  // One statement whatever the race: the first open report opens the entry, every later one counts on it.
  await trx
    .insertInto('report_targets')
    .values({
      id: a.reportId,
      target_type: a.targetType,
      target_id: a.targetId,
      state: 'open',
      reports_count: 1,
      snapshot,
      first_reported_at: now,
      last_reported_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['target_type', 'target_id'])
        // The literal the partial index report_targets_open_once has: both engines infer it as the conflict target.
        .where(sql<boolean>`state = 'open'`)
        .doUpdateSet({
          reports_count: sql<number>`report_targets.reports_count + 1`,
          last_reported_at: sql<number>`CASE WHEN report_targets.last_reported_at > excluded.last_reported_at THEN report_targets.last_reported_at ELSE excluded.last_reported_at END`,
        }),
    )
    .execute();
}
