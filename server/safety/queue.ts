import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { ReportQueueItem, ReportQueuePage, ReportSnapshot, ReportState } from '#sync/rest-api/moderation';
import type { ReportTargetType } from '#sync/protocol/report-reasons';
import { targetKey, targetStates } from './targets';

// GET /api/admin/reports (docs/moderation.md): the queue, one entry per reported target, keyset-paged
// over report_targets_queue (state, first_reported_at, id). Open entries oldest first (the longest
// waiting is handled first); resolved ones newest first. The reasons and notes of a page's entries
// are two reads on reports_target, whatever the page's length.

/** Where a page starts: after this entry's (first_reported_at, id); server/admin/cursor.ts makes it opaque. */
export interface QueueCursor {
  createdAt: number;
  id: string;
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof pageQuery>['execute']>>[number];

/** One page (plus one row, to know whether another follows); exported so a test can check its query plan. */
export function pageQuery(db: Kysely<Database>, opts: { state: ReportState; limit: number; cursor: QueueCursor | null }) {
  const dir = opts.state === 'open' ? 'asc' : 'desc';
  let q = db
    .selectFrom('report_targets')
    .selectAll()
    .where('state', '=', opts.state)
    .orderBy('first_reported_at', dir)
    .orderBy('id', dir)
    .limit(opts.limit + 1);
  if (opts.cursor) {
    const { createdAt: at, id } = opts.cursor;
    const after = dir === 'asc' ? '>' : '<';
    q = q.where((eb) => eb.or([eb('first_reported_at', after, at), eb.and([eb('first_reported_at', '=', at), eb('id', after, id)])]));
  }
  return q;
}

/** The reports behind an entry: open ones for an open entry, else those its resolve closed (same resolved_at). */
function reportsOf(db: Kysely<Database>, entries: EntryRow[]) {
  return db
    .selectFrom('reports')
    .select(['target_type', 'target_id', 'state', 'resolved_at', 'reason', 'note', 'created_at'])
    .where((eb) =>
      eb.or(
        entries.map((e) =>
          eb.and([
            eb('target_type', '=', e.target_type),
            eb('target_id', '=', e.target_id),
            eb('state', '=', e.state),
            e.resolved_at === null ? eb('resolved_at', 'is', null) : eb('resolved_at', '=', e.resolved_at),
          ]),
        ),
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

type Evidence = Pick<ReportQueueItem, 'reasons' | 'notes'>;

async function evidenceOf(db: Kysely<Database>, entries: EntryRow[]): Promise<Map<string, Evidence>> {
  const out = new Map<string, Evidence & { counts: Map<string, number> }>();
  for (const r of entries.length ? await reportsOf(db, entries) : []) {
    const key = targetKey(r.target_type, r.target_id);
    const e = out.get(key) ?? { reasons: [], notes: [], counts: new Map<string, number>() };
    out.set(key, e);
    e.counts.set(r.reason, (e.counts.get(r.reason) ?? 0) + 1);
    if (r.note) e.notes.push({ code: r.reason, note: r.note });
  }
  for (const e of out.values()) {
    e.reasons = [...e.counts].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  }
  return out;
}

export async function listReportQueue(
  db: Kysely<Database>,
  opts: { state: ReportState; limit: number; cursor: QueueCursor | null },
): Promise<{ items: ReportQueuePage['items']; next: QueueCursor | null }> {
  const rows = await pageQuery(db, opts).execute();
  const page = rows.slice(0, opts.limit);
  const [evidence, states] = await Promise.all([evidenceOf(db, page), targetStates(db, page)]);
  const last = page.at(-1);
  return {
    items: page.map((r): ReportQueueItem => {
      const key = targetKey(r.target_type, r.target_id);
      return {
        target_type: r.target_type as ReportTargetType,
        target_id: r.target_id,
        state: r.state as ReportState,
        reports_count: Number(r.reports_count),
        reasons: evidence.get(key)?.reasons ?? [],
        notes: evidence.get(key)?.notes ?? [],
        snapshot: JSON.parse(r.snapshot) as ReportSnapshot,
        target_state: states.get(key) ?? 'removed',
        first_reported_at: Number(r.first_reported_at),
        last_reported_at: Number(r.last_reported_at),
        resolved_at: r.resolved_at === null ? null : Number(r.resolved_at),
        resolution_note: r.resolution_note,
      };
    }),
    next: rows.length > opts.limit && last ? { createdAt: Number(last.first_reported_at), id: last.id } : null,
  };
}
