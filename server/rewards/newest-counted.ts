import { sql } from 'kysely';
import { greatest } from './dialect';
import { eligibleP, type Board, type Db } from './eligibility';

/** Leave-outs for a reach-time lookup: a member or a video whose rows are about to stop counting in this transaction. */
export interface Exclusion {
  userId?: string;
  videoId?: string;
}

/**
 * created_at of the newest action still counted for a member on a board (0 when none). Likes and
 * views read the newest end of a (…, created_at) index and stop at the first eligible row; a
 * comment pair (member, video) is timed by its earliest comment of the period, so that branch
 * groups the comments concerned.
 */
export async function newestCounted(db: Db, userId: string, board: Board, ps: number, ex: Exclusion): Promise<number> {
  const exUser = ex.userId ?? '';
  const exVideo = ex.videoId ?? '';
  const ok = eligibleP(ps);
  const query =
    board === 'creator'
      ? sql<{ t: number | null }>`SELECT max(t) AS t FROM (
          SELECT (SELECT l.created_at FROM likes l JOIN profiles p ON p.id = l.user_id
                  WHERE l.video_id = v.id AND l.created_at > ${ps} AND l.user_id <> v.user_id AND ${ok} AND l.user_id <> ${exUser}
                  ORDER BY l.created_at DESC LIMIT 1) AS t
          FROM videos v WHERE v.user_id = ${userId} AND v.id <> ${exVideo}
          UNION ALL
          SELECT min(c.created_at) AS t FROM videos v JOIN comments c ON c.video_id = v.id JOIN profiles p ON p.id = c.user_id
          WHERE v.user_id = ${userId} AND v.id <> ${exVideo} AND c.created_at > ${ps} AND c.parent_id IS NULL AND c.deleted = 0
            AND c.user_id <> v.user_id AND ${ok} AND c.user_id <> ${exUser}
          GROUP BY c.video_id, c.user_id) AS newest`
      : sql<{ t: number | null }>`SELECT ${greatest(
          db,
          sql`coalesce((SELECT l.created_at FROM likes l JOIN videos v ON v.id = l.video_id JOIN profiles p ON p.id = v.user_id
                    WHERE l.user_id = ${userId} AND l.created_at > ${ps} AND v.user_id <> ${userId} AND ${ok}
                      AND v.user_id <> ${exUser} AND l.video_id <> ${exVideo}
                    ORDER BY l.created_at DESC LIMIT 1), 0)`,
          sql`coalesce((SELECT max(first) FROM (SELECT min(c.created_at) AS first FROM comments c JOIN videos v ON v.id = c.video_id JOIN profiles p ON p.id = v.user_id
                    WHERE c.user_id = ${userId} AND c.created_at > ${ps} AND c.parent_id IS NULL AND c.deleted = 0 AND v.user_id <> ${userId} AND ${ok}
                      AND v.user_id <> ${exUser} AND c.video_id <> ${exVideo}
                    GROUP BY c.video_id) AS pairs), 0)`,
          sql`coalesce((SELECT w.created_at FROM views w JOIN videos v ON v.id = w.video_id JOIN profiles p ON p.id = v.user_id
                    WHERE w.user_id = ${userId} AND w.created_at > ${ps} AND v.user_id <> ${userId} AND ${ok}
                      AND v.user_id <> ${exUser} AND w.video_id <> ${exVideo}
                    ORDER BY w.created_at DESC LIMIT 1), 0)`,
        )} AS t`;
  const { rows } = await query.execute(db);
  return Number(rows[0]?.t ?? 0);
}
