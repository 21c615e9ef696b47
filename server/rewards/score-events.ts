import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/*
 * The maintained leaderboard counters (`scores`). The rule they keep, and that recomputeScores()
 * checks from the rows:
 *
 *   an action (like, comment, qualifying view) COUNTS when it was made after the newest
 *   distribution (created_at > period start), the actor is not the video's owner, and both the
 *   actor and the owner are eligible (profile is_active = 1 and account_status = 'active').
 *
 *   creator points = counted likes + comments received; viewer points = counted likes + comments +
 *   views given. A board's reach time is the created_at of the newest action still counted on that
 *   board (0 with no points): with only additions it is exactly when the current total was reached,
 *   and it stays a pure function of the rows when actions are removed. Ties: earlier reach first,
 *   then user id.
 *
 * Invariant that makes suspension idempotent: an eligible member with a counted action always has a
 * `scores` row, and an ineligible one never has. A removal only subtracts when both rows exist.
 */

export type Db = Kysely<Database> | Transaction<Database>;
export type Board = 'creator' | 'viewer';

/**
 * One thing that moves leaderboard points. Every write path that adds or removes a like, comment or
 * qualifying view calls applyScoreEvent in the same transaction. For a removal, call it after the
 * row is deleted, or pass videoId (and commentId for a comment) so the removed row is ignored.
 */
export interface ScoreEvent {
  kind: 'like' | 'comment' | 'view';
  /** Who liked, commented or watched. */
  actorId: string;
  /** Owner of the video. */
  creatorId: string;
  /** +1 when added, -1 when removed. */
  delta: 1 | -1;
  /** The row's created_at (a removal passes the original time). */
  occurredAt: number;
  /** Now. Not used for points: reach times come from the rows (see above). */
  at?: number;
  /** The video of the like/comment/view; lets a removal ignore the row before it is deleted. */
  videoId?: string;
  /** The comment being removed, for the same reason. */
  commentId?: string;
}

/** Leave-outs for a reach-time lookup: rows that are about to disappear in this transaction. */
export interface Exclusion {
  userId?: string;
  videoId?: string;
  like?: { videoId: string; userId: string };
  commentId?: string;
  view?: { videoId: string; userId: string };
}

export const ELIGIBLE_STATUS = 'active';

/** Start of the current scoring period: the newest distribution's time, or 0. Reads the period_start index. */
export async function currentPeriodStart(db: Db): Promise<number> {
  const row = await db.selectFrom('distributions').select('created_at').orderBy('period_start', 'desc').limit(1).executeTakeFirst();
  return Number(row?.created_at ?? 0);
}

export async function eligibleUsers(db: Db, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('profiles')
    .select('id')
    .where('id', 'in', ids)
    .where('is_active', '=', 1)
    .where('account_status', '=', ELIGIBLE_STATUS)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function ensureScoreRows(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db
    .insertInto('scores')
    .values(ids.map((id) => ({ user_id: id, creator_points: 0, viewer_points: 0, creator_reached_at: 0, viewer_reached_at: 0 })))
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

const cols = (board: Board) =>
  board === 'creator' ? ({ points: 'creator_points', reached: 'creator_reached_at' } as const) : ({ points: 'viewer_points', reached: 'viewer_reached_at' } as const);

/**
 * ensureScoreRows plus adding points, in one statement: creates the member's row if needed, then adds n
 * actions whose newest is at `newest` (n = 0 only makes sure the row exists). The hot path of every
 * like, comment and view.
 */
async function upsertPoints(db: Db, userId: string, board: Board, n: number, newest: number): Promise<void> {
  const { points, reached } = cols(board);
  const creator = board === 'creator';
  await sql`INSERT INTO scores (user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at)
    VALUES (${userId}, ${creator ? n : 0}, ${creator ? 0 : n}, ${creator ? newest : 0}, ${creator ? 0 : newest})
    ON CONFLICT (user_id) DO UPDATE SET ${sql.ref(points)} = ${sql.ref(points)} + excluded.${sql.ref(points)},
      ${sql.ref(reached)} = max(${sql.ref(reached)}, excluded.${sql.ref(reached)})`.execute(db);
}

/**
 * Removes n counted actions whose newest was at `newestRemoved`; when that could have been the
 * reach time, looks the new one up (ignoring `exclude`, the rows still present but going away).
 */
export async function subtractPoints(db: Db, userId: string, board: Board, n: number, newestRemoved: number, ps: number, exclude: Exclusion): Promise<void> {
  if (n === 0) return;
  const { points, reached } = cols(board);
  const row = (await sql<{ p: number; r: number }>`SELECT ${sql.ref(points)} AS p, ${sql.ref(reached)} AS r FROM scores WHERE user_id = ${userId}`.execute(db)).rows[0];
  if (!row) return;
  const current = Number(row.r);
  const left = Number(row.p) - n;
  const newReach = left <= 0 ? 0 : newestRemoved >= current ? await newestCounted(db, userId, board, ps, exclude) : current;
  await sql`UPDATE scores SET ${sql.ref(points)} = ${sql.ref(points)} - ${n}, ${sql.ref(reached)} = ${newReach} WHERE user_id = ${userId}`.execute(db);
}

const ELIGIBLE_P = sql`p.is_active = 1 AND p.account_status = ${ELIGIBLE_STATUS}`;

/**
 * created_at of the newest action still counted for a member on a board (0 when none). Each branch
 * reads the newest end of a (…, created_at) index and stops at the first eligible row.
 */
export async function newestCounted(db: Db, userId: string, board: Board, ps: number, ex: Exclusion): Promise<number> {
  const exUser = ex.userId ?? '';
  const exVideo = ex.videoId ?? '';
  const exLikeVideo = ex.like?.videoId ?? '';
  const exLikeUser = ex.like?.userId ?? '';
  const exComment = ex.commentId ?? '';
  const exViewVideo = ex.view?.videoId ?? '';
  const exViewUser = ex.view?.userId ?? '';
  const query =
    board === 'creator'
      ? sql<{ t: number | null }>`SELECT max(t) AS t FROM (
          SELECT (SELECT l.created_at FROM likes l JOIN profiles p ON p.id = l.user_id
                  WHERE l.video_id = v.id AND l.created_at > ${ps} AND l.user_id <> v.user_id AND ${ELIGIBLE_P}
                    AND l.user_id <> ${exUser} AND NOT (l.video_id = ${exLikeVideo} AND l.user_id = ${exLikeUser})
                  ORDER BY l.created_at DESC LIMIT 1) AS t
          FROM videos v WHERE v.user_id = ${userId} AND v.id <> ${exVideo}
          UNION ALL
          SELECT (SELECT c.created_at FROM comments c JOIN profiles p ON p.id = c.user_id
                  WHERE c.video_id = v.id AND c.created_at > ${ps} AND c.user_id <> v.user_id AND ${ELIGIBLE_P}
                    AND c.user_id <> ${exUser} AND c.id <> ${exComment}
                  ORDER BY c.created_at DESC LIMIT 1) AS t
          FROM videos v WHERE v.user_id = ${userId} AND v.id <> ${exVideo})`
      : sql<{ t: number | null }>`SELECT max(
          coalesce((SELECT l.created_at FROM likes l JOIN videos v ON v.id = l.video_id JOIN profiles p ON p.id = v.user_id
                    WHERE l.user_id = ${userId} AND l.created_at > ${ps} AND v.user_id <> ${userId} AND ${ELIGIBLE_P}
                      AND v.user_id <> ${exUser} AND l.video_id <> ${exVideo} AND NOT (l.video_id = ${exLikeVideo} AND l.user_id = ${exLikeUser})
                    ORDER BY l.created_at DESC LIMIT 1), 0),
          coalesce((SELECT c.created_at FROM comments c JOIN videos v ON v.id = c.video_id JOIN profiles p ON p.id = v.user_id
                    WHERE c.user_id = ${userId} AND c.created_at > ${ps} AND v.user_id <> ${userId} AND ${ELIGIBLE_P}
                      AND v.user_id <> ${exUser} AND c.video_id <> ${exVideo} AND c.id <> ${exComment}
                    ORDER BY c.created_at DESC LIMIT 1), 0),
          coalesce((SELECT w.created_at FROM views w JOIN videos v ON v.id = w.video_id JOIN profiles p ON p.id = v.user_id
                    WHERE w.user_id = ${userId} AND w.created_at > ${ps} AND v.user_id <> ${userId} AND ${ELIGIBLE_P}
                      AND v.user_id <> ${exUser} AND w.video_id <> ${exVideo} AND NOT (w.video_id = ${exViewVideo} AND w.user_id = ${exViewUser})
                    ORDER BY w.created_at DESC LIMIT 1), 0)) AS t`;
  const { rows } = await query.execute(db);
  return Number(rows[0]?.t ?? 0);
}

function exclusionFor(e: ScoreEvent): Exclusion {
  if (!e.videoId) return {};
  if (e.kind === 'like') return { like: { videoId: e.videoId, userId: e.actorId } };
  if (e.kind === 'view') return { view: { videoId: e.videoId, userId: e.actorId } };
  return e.commentId ? { commentId: e.commentId } : {};
}

/**
 * Facts read once per push batch instead of once per action: the period start and who is eligible.
 * Only valid while the caller holds the write transaction and nothing in it distributes prizes or
 * changes a member's status (no sync mutation does).
 */
export interface ScoreMemo {
  periodStart?: number;
  eligible: Map<string, boolean>;
}

export const newScoreMemo = (): ScoreMemo => ({ eligible: new Map() });

async function bothEligible(trx: Db, a: string, b: string, memo: ScoreMemo | undefined): Promise<boolean> {
  if (!memo) return (await eligibleUsers(trx, [a, b])).size === 2;
  const unknown = [a, b].filter((id) => !memo.eligible.has(id));
  if (unknown.length) {
    const found = await eligibleUsers(trx, unknown);
    for (const id of unknown) memo.eligible.set(id, found.has(id));
  }
  return memo.eligible.get(a) === true && memo.eligible.get(b) === true;
}

/** Applies one added or removed action; returns whether any points moved. */
export async function applyScoreEvent(trx: Db, e: ScoreEvent, memo?: ScoreMemo): Promise<boolean> {
  // Own videos never score (spec section 9, decisions.md), and only this period's actions count.
  if (e.actorId === e.creatorId) return false;
  const ps = memo ? (memo.periodStart ??= await currentPeriodStart(trx)) : await currentPeriodStart(trx);
  if (!(e.occurredAt > ps)) return false;
  if (!(await bothEligible(trx, e.actorId, e.creatorId, memo))) return false;
  if (e.delta > 0) {
    // A view gives the creator no points, but the creator's row must exist all the same (the invariant).
    const creatorGets = e.kind === 'view' ? 0 : 1;
    await upsertPoints(trx, e.creatorId, 'creator', creatorGets, creatorGets ? e.occurredAt : 0);
    await upsertPoints(trx, e.actorId, 'viewer', 1, e.occurredAt);
    return true;
  }
  // A removed action only counted if both members still have their rows (see the invariant above):
  // after onUserDeleted, the loops that undo that user's actions one by one change nothing.
  // Raw SQL, not the query builder, here and in subtractPoints: every unlike runs these.
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM scores WHERE user_id IN (${e.actorId}, ${e.creatorId})`.execute(trx);
  if (Number(rows[0]?.n ?? 0) < 2) return false;
  const exclude = exclusionFor(e);
  if (e.kind !== 'view') await subtractPoints(trx, e.creatorId, 'creator', 1, e.occurredAt, ps, exclude);
  await subtractPoints(trx, e.actorId, 'viewer', 1, e.occurredAt, ps, exclude);
  return true;
}

/** Points moving for one member on one board, with the newest action among them. */
export interface PointsChange {
  userId: string;
  n: number;
  newest: number;
}

const CHUNK = 300;

/** Writes (points delta, reach time) for many members in one statement per chunk. */
async function writeMany(db: Db, board: Board, rows: Array<{ userId: string; delta: number; reach: number | null }>): Promise<void> {
  const { points, reached } = cols(board);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = sql.join(rows.slice(i, i + CHUNK).map((r) => sql`(${r.userId}, ${r.delta}, ${r.reach})`));
    // reach null: keep the larger of the current reach and the change's newest (additions).
    await sql`UPDATE scores SET ${sql.ref(points)} = ${sql.ref(points)} + t.delta,
        ${sql.ref(reached)} = coalesce(t.reach, ${sql.ref(reached)})
      FROM (SELECT column1 AS user_id, column2 AS delta, column3 AS reach FROM (VALUES ${values})) AS t
      WHERE scores.user_id = t.user_id`.execute(db);
  }
}

/** Adds points for many members (their rows must exist). */
export async function addPointsMany(db: Db, board: Board, changes: PointsChange[]): Promise<void> {
  const { reached } = cols(board);
  const live = changes.filter((c) => c.n !== 0);
  for (let i = 0; i < live.length; i += CHUNK) {
    const chunk = live.slice(i, i + CHUNK);
    const current = await db.selectFrom('scores').select(['user_id', reached]).where('user_id', 'in', chunk.map((c) => c.userId)).execute();
    const reach = new Map(current.map((r) => [r.user_id, Number((r as Record<string, unknown>)[reached])]));
    await writeMany(db, board, chunk.map((c) => ({ userId: c.userId, delta: c.n, reach: Math.max(reach.get(c.userId) ?? 0, c.newest) })));
  }
}

/**
 * subtractPoints for many members: one read and one write per chunk, and the reach-time lookup only
 * for members whose newest counted action may be among the removed ones. Members without a row are
 * skipped.
 */
export async function subtractPointsMany(db: Db, board: Board, changes: PointsChange[], ps: number, exclude: Exclusion): Promise<void> {
  const { points, reached } = cols(board);
  const live = changes.filter((c) => c.n !== 0);
  for (let i = 0; i < live.length; i += CHUNK) {
    const chunk = live.slice(i, i + CHUNK);
    const current = await db.selectFrom('scores').select(['user_id', points, reached]).where('user_id', 'in', chunk.map((c) => c.userId)).execute();
    const byId = new Map(current.map((r) => [r.user_id, r as Record<string, unknown>]));
    const rows = [];
    for (const c of chunk) {
      const row = byId.get(c.userId);
      if (!row) continue;
      const was = Number(row[reached]);
      const left = Number(row[points]) - c.n;
      const reach = left <= 0 ? 0 : c.newest >= was ? await newestCounted(db, c.userId, board, ps, exclude) : was;
      rows.push({ userId: c.userId, delta: -c.n, reach });
    }
    await writeMany(db, board, rows);
  }
}
