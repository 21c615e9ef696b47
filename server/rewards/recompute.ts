import { sql, type Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { lockScoringExclusive } from '#db/locks';
import { notIndexed } from './dialect';
import { DAY_MS, currentPeriodStart, readViewerCap, type Db } from './eligibility';

export interface ScoreRow {
  user_id: string;
  creator_points: number;
  viewer_points: number;
  creator_reached_at: number;
  viewer_reached_at: number;
}

export interface ViewerDayRow {
  user_id: string;
  day: number;
  actions: number;
}

/** A scoring period: actions with start < created_at (<= end, for a closed period). */
export interface Period {
  start: number;
  end?: number;
}

/**
 * The counted actions of the period as (actor, owner, time): likes, comment pairs (earliest comment),
 * views. The actor side reads the table in storage order and sorts: walking a (user_id, …) index
 * would fetch every row at random (SQLite needs telling; PostgreSQL's planner sees it).
 */
const source = (db: Db, name: 'likes' | 'pairs' | 'views', period: Period, side: 'creator' | 'actor') => {
  const table = sql.table(name === 'pairs' ? 'comments' : name);
  const from = side === 'actor' ? sql`${table} a${notIndexed(db)}` : sql`${table} a`;
  const within = period.end === undefined ? sql`a.created_at > ${period.start}` : sql`a.created_at > ${period.start} AND a.created_at <= ${period.end}`;
  // v.user_id is one per video; PostgreSQL wants it named in the GROUP BY all the same.
  return name === 'pairs'
    ? sql`SELECT a.user_id AS actor, v.user_id AS owner, min(a.created_at) AS t FROM ${from} JOIN videos v ON v.id = a.video_id
        WHERE ${within} AND a.parent_id IS NULL AND a.deleted = 0 GROUP BY a.user_id, a.video_id, v.user_id`
    : sql`SELECT a.user_id AS actor, v.user_id AS owner, a.created_at AS t FROM ${from} JOIN videos v ON v.id = a.video_id WHERE ${within}`;
};

/** Members who may not score in the period: inactive, unpaid, or voided for it. */
const BAD = (ps: number) => sql`bad AS (SELECT id FROM profiles WHERE NOT (is_active = 1 AND account_status = 'active')
  UNION SELECT user_id FROM reward_voids WHERE period_start = ${ps})`;

/**
 * The scores and viewer day counts computed from scratch from likes, comments, views, videos,
 * profiles, voids, distributions and the cap (the rule in score-events.ts). One score row per
 * eligible member involved in a counted action, even when their points on both boards are 0 (the
 * owner of a video that was only watched). Sorted by user id (days by user id, day). Tests compare
 * it with the maintained counters; rebuildScores() writes it. `closed` recomputes a past period
 * instead (what its distribution should have recorded), under today's eligibility and cap.
 */
export async function recomputeAll(db: Db, closed?: Required<Period>): Promise<{ scores: ScoreRow[]; days: ViewerDayRow[] }> {
  const period: Period = closed ?? { start: await currentPeriodStart(db) };
  const ps = period.start;
  const cap = await readViewerCap(db);
  const by = new Map<string, ScoreRow>();
  const rowOf = (id: string) => {
    let row = by.get(id);
    if (!row) {
      row = { user_id: id, creator_points: 0, viewer_points: 0, creator_reached_at: 0, viewer_reached_at: 0 };
      by.set(id, row);
    }
    return row;
  };
  const dayCounts = new Map<string, number>();
  // Per source, one grouped pass per side (creators by owner, viewers by actor and day); the few
  // ineligible members as a set (an ephemeral index).
  for (const name of ['likes', 'pairs', 'views'] as const) {
    const creators = await sql<{ id: string; n: number; newest: number }>`
      WITH ${BAD(ps)}, x AS (${source(db, name, period, 'creator')})
      SELECT owner AS id, count(*) AS n, max(t) AS newest FROM x
      WHERE actor <> owner AND actor NOT IN (SELECT id FROM bad) AND owner NOT IN (SELECT id FROM bad) GROUP BY owner`.execute(db);
    for (const r of creators.rows) {
      // A video that was only watched still gives its owner a (zero-point) row.
      const row = rowOf(r.id);
      if (name === 'views') continue;
      row.creator_points += Number(r.n);
      row.creator_reached_at = Math.max(row.creator_reached_at, Number(r.newest));
    }
    const viewers = await sql<{ id: string; day: number; n: number; newest: number }>`
      WITH ${BAD(ps)}, x AS (${source(db, name, period, 'actor')})
      SELECT actor AS id, t / ${sql.lit(DAY_MS)} AS day, count(*) AS n, max(t) AS newest FROM x
      WHERE actor <> owner AND actor NOT IN (SELECT id FROM bad) AND owner NOT IN (SELECT id FROM bad) GROUP BY actor, day`.execute(db);
    for (const r of viewers.rows) {
      const row = rowOf(r.id);
      row.viewer_reached_at = Math.max(row.viewer_reached_at, Number(r.newest));
      const key = `${r.id}\n${Number(r.day)}`;
      dayCounts.set(key, (dayCounts.get(key) ?? 0) + Number(r.n));
    }
  }
  const days: ViewerDayRow[] = [];
  for (const [key, actions] of dayCounts) {
    const [userId, day] = key.split('\n') as [string, string];
    days.push({ user_id: userId, day: Number(day), actions });
    rowOf(userId).viewer_points += Math.min(cap, actions);
  }
  const byId = (a: { user_id: string }, b: { user_id: string }) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0);
  return { scores: [...by.values()].sort(byId), days: days.sort((a, b) => byId(a, b) || a.day - b.day) };
}

/** The scores computed from scratch (see recomputeAll). */
export async function recomputeScores(db: Db, closed?: Required<Period>): Promise<ScoreRow[]> {
  return (await recomputeAll(db, closed)).scores;
}

/**
 * Replaces the counters with a full recomputation (after a bulk import, a seed or migration 0007).
 * Run it in a transaction: it holds the scoring lock, so no push moves points half-way through.
 */
export async function rebuildScores(db: Db): Promise<number> {
  await lockScoringExclusive(db);
  const { scores, days } = await recomputeAll(db);
  await db.deleteFrom('scores').execute();
  await db.deleteFrom('viewer_days').execute();
  for (let i = 0; i < scores.length; i += 1000)
    await db
      .insertInto('scores')
      .values(scores.slice(i, i + 1000))
      .execute();
  for (let i = 0; i < days.length; i += 1000)
    await db
      .insertInto('viewer_days')
      .values(days.slice(i, i + 1000))
      .execute();
  return scores.length;
}

/** The settings row a migration leaves when the counters must be rebuilt under changed rules. */
export const SCORES_REBUILD_MARKER = 'scores_rebuild_pending';

/** Rebuilds the counters once after a migration asked for it (the marker goes in the same transaction). */
export async function rebuildScoresIfMarked(db: Kysely<Database>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const marker = await trx.deleteFrom('settings').where('key', '=', SCORES_REBUILD_MARKER).executeTakeFirst();
    if (Number(marker.numDeletedRows) === 0) return false;
    await rebuildScores(trx);
    return true;
  });
}

/**
 * What must agree between the counters and a recomputation: per member and board, the points and
 * (when there are points) the reach time. Rows with no points are markers and carry no standing.
 */
export function standingsOf(rows: ScoreRow[]): Array<[string, number, number, number, number]> {
  return rows
    .filter((r) => r.creator_points !== 0 || r.viewer_points !== 0)
    .map((r): [string, number, number, number, number] => [
      r.user_id,
      Number(r.creator_points),
      r.creator_points ? Number(r.creator_reached_at) : 0,
      Number(r.viewer_points),
      r.viewer_points ? Number(r.viewer_reached_at) : 0,
    ])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** The maintained day counts in recomputeAll's order, without the zero rows a removal may leave. */
export async function maintainedDays(db: Db): Promise<ViewerDayRow[]> {
  const rows = await db.selectFrom('viewer_days').select(['user_id', 'day', 'actions']).where('actions', '>', 0).orderBy('user_id').orderBy('day').execute();
  return rows.map((r) => ({ user_id: r.user_id, day: Number(r.day), actions: Number(r.actions) }));
}
