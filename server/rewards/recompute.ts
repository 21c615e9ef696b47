import { sql } from 'kysely';
import { currentPeriodStart, type Db } from './score-events';

export interface ScoreRow {
  user_id: string;
  creator_points: number;
  viewer_points: number;
  creator_reached_at: number;
  viewer_reached_at: number;
}

/**
 * The scores computed from scratch from likes, comments, views, videos, profiles and distributions
 * (the rule in score-events.ts). One row per eligible member involved in a counted action, even when
 * their points on both boards are 0 (the owner of a video that was only watched). Sorted by user id.
 * Tests compare it with the maintained counters; rebuildScores() writes it.
 */
export async function recomputeScores(db: Db): Promise<ScoreRow[]> {
  const ps = await currentPeriodStart(db);
  const by = new Map<string, ScoreRow>();
  const rowOf = (id: string) => {
    let row = by.get(id);
    if (!row) {
      row = { user_id: id, creator_points: 0, viewer_points: 0, creator_reached_at: 0, viewer_reached_at: 0 };
      by.set(id, row);
    }
    return row;
  };
  // One grouped pass per table and side (cheaper than one big union); the few ineligible members as
  // a set (an ephemeral index), instead of two profile lookups per action.
  for (const table of ['likes', 'comments', 'views'] as const) {
    for (const side of ['creator', 'actor'] as const) {
      // The actor side reads the table in storage order and sorts: walking a (user_id, …) index would
      // fetch every row at random.
      const from = side === 'actor' ? sql`${sql.table(table)} a NOT INDEXED` : sql`${sql.table(table)} a`;
      const key = side === 'creator' ? sql`v.user_id` : sql`a.user_id`;
      const { rows } = await sql<{ user_id: string; n: number; newest: number }>`
        WITH bad AS (SELECT id FROM profiles WHERE NOT (is_active = 1 AND account_status = 'active'))
        SELECT ${key} AS user_id, count(*) AS n, max(a.created_at) AS newest
        FROM ${from} JOIN videos v ON v.id = a.video_id
        WHERE a.created_at > ${ps} AND a.user_id <> v.user_id AND a.user_id NOT IN bad AND v.user_id NOT IN bad
        GROUP BY ${key}`.execute(db);
      for (const r of rows) {
        const row = rowOf(r.user_id);
        const n = Number(r.n);
        const newest = Number(r.newest);
        if (side === 'actor') {
          row.viewer_points += n;
          row.viewer_reached_at = Math.max(row.viewer_reached_at, newest);
        } else if (table !== 'views') {
          row.creator_points += n;
          row.creator_reached_at = Math.max(row.creator_reached_at, newest);
        }
      }
    }
  }
  return [...by.values()].sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0));
}

/** Replaces the counters with a full recomputation (after a bulk import or seed). */
export async function rebuildScores(db: Db): Promise<number> {
  const rows = await recomputeScores(db);
  await db.deleteFrom('scores').execute();
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('scores').values(rows.slice(i, i + 1000)).execute();
  return rows.length;
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
