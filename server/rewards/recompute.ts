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
  const { rows } = await sql<{ user_id: string; board: string; points: number; reached: number | null }>`
    WITH counted AS (
      SELECT x.creator, x.actor, x.t, x.engagement FROM (
        SELECT v.user_id AS creator, l.user_id AS actor, l.created_at AS t, 1 AS engagement FROM likes l JOIN videos v ON v.id = l.video_id
        UNION ALL SELECT v.user_id, c.user_id, c.created_at, 1 FROM comments c JOIN videos v ON v.id = c.video_id
        UNION ALL SELECT v.user_id, w.user_id, w.created_at, 0 FROM views w JOIN videos v ON v.id = w.video_id
      ) x
      JOIN profiles pc ON pc.id = x.creator JOIN profiles pa ON pa.id = x.actor
      WHERE x.t > ${ps} AND x.creator <> x.actor
        AND pc.is_active = 1 AND pc.account_status = 'active' AND pa.is_active = 1 AND pa.account_status = 'active'
    )
    SELECT creator AS user_id, 'creator' AS board, sum(engagement) AS points, max(CASE WHEN engagement = 1 THEN t END) AS reached
      FROM counted GROUP BY creator
    UNION ALL
    SELECT actor, 'viewer', count(*), max(t) FROM counted GROUP BY actor`.execute(db);
  const by = new Map<string, ScoreRow>();
  for (const r of rows) {
    let row = by.get(r.user_id);
    if (!row) {
      row = { user_id: r.user_id, creator_points: 0, viewer_points: 0, creator_reached_at: 0, viewer_reached_at: 0 };
      by.set(r.user_id, row);
    }
    const points = Number(r.points);
    const reached = points ? Number(r.reached ?? 0) : 0;
    if (r.board === 'creator') {
      row.creator_points = points;
      row.creator_reached_at = reached;
    } else {
      row.viewer_points = points;
      row.viewer_reached_at = reached;
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
