import { sql } from 'kysely';
import { forUpdate, greatest, isPostgres } from './dialect';
import type { Board, Db } from './eligibility';
import { newestCounted, type Exclusion } from './newest-counted';

// The writes to `scores`: one row per member, points and reach time per board (score-events.ts
// has the rule).

export const cols = (board: Board) =>
  board === 'creator'
    ? ({ points: 'creator_points', reached: 'creator_reached_at' } as const)
    : ({ points: 'viewer_points', reached: 'viewer_reached_at' } as const);

export async function ensureScoreRows(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db
    .insertInto('scores')
    .values(ids.map((id) => ({ user_id: id, creator_points: 0, viewer_points: 0, creator_reached_at: 0, viewer_reached_at: 0 })))
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/**
 * ensureScoreRows plus adding points, in one statement: creates the member's row if needed, then adds n
 * points and moves the reach time to `newest` if that is later (n = 0 with newest = 0 only makes
 * sure the row exists). The hot path of every like, comment and view.
 */
export async function upsertPoints(db: Db, userId: string, board: Board, n: number, newest: number): Promise<void> {
  const { points, reached } = cols(board);
  const creator = board === 'creator';
  await sql`INSERT INTO scores (user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at)
    VALUES (${userId}, ${creator ? n : 0}, ${creator ? 0 : n}, ${creator ? newest : 0}, ${creator ? 0 : newest})
    ON CONFLICT (user_id) DO UPDATE SET ${sql.ref(points)} = ${sql.ref(`scores.${points}`)} + excluded.${sql.ref(points)},
      ${sql.ref(reached)} = ${greatest(db, sql.ref(`scores.${reached}`), sql`excluded.${sql.ref(reached)}`)}`.execute(db);
}

/**
 * Takes n points off (n may be 0: an action over the daily cap) for an action at `newestRemoved`;
 * when that could have been the reach time, looks the new one up (ignoring `exclude`, rows still
 * present but going away). The row is read FOR UPDATE: the reach time is computed from the rows,
 * and two removals at once on PostgreSQL must not both compute it from what the other deleted.
 */
export async function subtractPoints(db: Db, userId: string, board: Board, n: number, newestRemoved: number, ps: number, exclude: Exclusion): Promise<void> {
  const { points, reached } = cols(board);
  const row = (
    await sql<{ p: number; r: number }>`SELECT ${sql.ref(points)} AS p, ${sql.ref(reached)} AS r FROM scores WHERE user_id = ${userId}${forUpdate(db)}`.execute(
      db,
    )
  ).rows[0];
  if (!row) return;
  const current = Number(row.r);
  if (n === 0 && newestRemoved < current) return;
  const left = Number(row.p) - n;
  const newReach = left <= 0 ? 0 : newestRemoved >= current ? await newestCounted(db, userId, board, ps, exclude) : current;
  await sql`UPDATE scores SET ${sql.ref(points)} = ${sql.ref(points)} - ${n}, ${sql.ref(reached)} = ${newReach} WHERE user_id = ${userId}`.execute(db);
}

/** Points moving for one member on one board, with the newest action among them. */
export interface PointsChange {
  userId: string;
  n: number;
  newest: number;
}

const CHUNK = 300;

/**
 * The rows of writeMany as a table t(user_id, delta, reach): SQLite names VALUES columns column1…
 * and has no column list on a derived table; PostgreSQL needs one, and types for the parameters
 * (an untyped VALUES column is text).
 */
function valuesTable(db: Db, rows: Array<{ userId: string; delta: number; reach: number | null }>) {
  if (!isPostgres(db)) {
    const values = sql.join(rows.map((r) => sql`(${r.userId}, ${r.delta}, ${r.reach})`));
    return sql`(SELECT column1 AS user_id, column2 AS delta, column3 AS reach FROM (VALUES ${values})) AS t`;
  }
  const values = sql.join(rows.map((r) => sql`(${r.userId}::text, ${r.delta}::integer, ${r.reach}::bigint)`));
  return sql`(VALUES ${values}) AS t(user_id, delta, reach)`;
}

/** Writes (points delta, reach time) for many members in one statement per chunk. */
export async function writeMany(db: Db, board: Board, rows: Array<{ userId: string; delta: number; reach: number | null }>): Promise<void> {
  const { points, reached } = cols(board);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const t = valuesTable(db, rows.slice(i, i + CHUNK));
    await sql`UPDATE scores SET ${sql.ref(points)} = ${sql.ref(points)} + t.delta,
        ${sql.ref(reached)} = coalesce(t.reach, ${sql.ref(reached)})
      FROM ${t}
      WHERE scores.user_id = t.user_id`.execute(db);
  }
}

/** Adds points for many members (their rows must exist). */
export async function addPointsMany(db: Db, board: Board, changes: PointsChange[]): Promise<void> {
  const { reached } = cols(board);
  const live = changes.filter((c) => c.n !== 0);
  for (let i = 0; i < live.length; i += CHUNK) {
    const chunk = live.slice(i, i + CHUNK);
    const current = await db
      .selectFrom('scores')
      .select(['user_id', reached])
      .where(
        'user_id',
        'in',
        chunk.map((c) => c.userId),
      )
      // Read, then written from what was read: locked until commit on PostgreSQL (see forUpdate).
      .$if(isPostgres(db), (q) => q.forUpdate())
      .execute();
    const reach = new Map(current.map((r) => [r.user_id, Number((r as Record<string, unknown>)[reached])]));
    await writeMany(
      db,
      board,
      chunk.map((c) => ({ userId: c.userId, delta: c.n, reach: Math.max(reach.get(c.userId) ?? 0, c.newest) })),
    );
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
    const current = await db
      .selectFrom('scores')
      .select(['user_id', points, reached])
      .where(
        'user_id',
        'in',
        chunk.map((c) => c.userId),
      )
      // Read, then written from what was read: locked until commit on PostgreSQL (see forUpdate).
      .$if(isPostgres(db), (q) => q.forUpdate())
      .execute();
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

/**
 * Point changes buffered by a push (score-events.ts, ScoreMemo.pending), per member: creator points
 * and, per board, the newest action added and the newest removed (a removal may take the reach time
 * with it); per viewer and UTC day, the net actions.
 */
export interface PendingRow {
  creator: number;
  creatorAt: number;
  viewerAt: number;
  creatorOut?: number;
  viewerOut?: number;
}

export interface PendingScores {
  points: Map<string, PendingRow>;
  days: Map<string, Map<number, number>>;
  /** The scores rows the push may write: all locked at the first flush, in one statement, by user id. */
  lockUsers: string[];
  locked: boolean;
}

export type Current = { user_id: string; creator_points: number; viewer_points: number; creator_reached_at: number; viewer_reached_at: number };

/**
 * Writes a push's buffer on PostgreSQL (typed unnest arrays; SQLite's form is pending-scores-sqlite.ts), in the lock order every writer
 * uses: the viewer's days first, then the scores rows (locked in user id order; the first flush
 * locks every row the push may write, so a later one takes none out of order), then one upsert.
 * Viewer points are what the days say: per day min(cap, after) - min(cap, before), `after` returned
 * by the locked day row itself, so a concurrent change of the days (a deletion's applyViewerDays) is
 * counted, never a count read earlier. A board that lost an action whose time could be its reach
 * time gets it recomputed from the rows (as subtractPoints does), once, here.
 */
export async function writePendingScores(db: Db, p: PendingScores, cap: number, ps: number): Promise<void> {
  const viewerPoints = await writePendingDays(db, p.days, cap);
  const toLock = p.locked ? [...p.points.keys()] : [...new Set([...p.lockUsers, ...p.points.keys()])];
  p.locked = true;
  if (!toLock.length) return;
  const { rows } = await sql<Current>`SELECT user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at
    FROM scores WHERE user_id = ANY(${toLock}::text[]) ORDER BY user_id FOR UPDATE`.execute(db);
  const { rowsOut, reach } = await pendingRows(db, p, viewerPoints, new Map(rows.map((r) => [r.user_id, r])), ps);
  if (!rowsOut.length) return;
  // A recomputed reach replaces the row's (greatest of it and itself); the others only move later.
  const at = (u: string, board: 'creator' | 'viewer', added: number) => reach.get(u)?.[board] ?? added;
  const fixed = rowsOut.map(({ userId }) => reach.has(userId));
  await sql`INSERT INTO scores (user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at)
    SELECT u, c, v, cr, vr FROM unnest(${rowsOut.map((x) => x.userId)}::text[], ${rowsOut.map((x) => x.r.creator)}::integer[],
      ${rowsOut.map((x) => x.viewer)}::integer[], ${rowsOut.map((x) => at(x.userId, 'creator', x.r.creatorAt))}::bigint[],
      ${rowsOut.map((x) => at(x.userId, 'viewer', x.r.viewerAt))}::bigint[]) AS t(u, c, v, cr, vr) ORDER BY 1
    ON CONFLICT (user_id) DO UPDATE SET creator_points = scores.creator_points + excluded.creator_points,
      viewer_points = scores.viewer_points + excluded.viewer_points,
      creator_reached_at = greatest(scores.creator_reached_at, excluded.creator_reached_at),
      viewer_reached_at = greatest(scores.viewer_reached_at, excluded.viewer_reached_at)`.execute(db);
  if (fixed.some(Boolean)) {
    const set = rowsOut.filter((_, i) => fixed[i]);
    await sql`UPDATE scores SET creator_reached_at = t.cr, viewer_reached_at = t.vr
      FROM unnest(${set.map((x) => x.userId)}::text[], ${set.map((x) => reach.get(x.userId)!.creator)}::bigint[],
        ${set.map((x) => reach.get(x.userId)!.viewer)}::bigint[]) AS t(u, cr, vr) WHERE scores.user_id = t.u`.execute(db);
  }
}

export type PendingOut = { userId: string; r: PendingRow; viewer: number };

/**
 * The buffer as rows to write (each member's creator points and the viewer points its days moved),
 * with the reach times recomputed for members who lost an action; empties the buffer. `current`:
 * the scores rows of at least the members who lost one.
 */
export async function pendingRows(db: Db, p: PendingScores, viewerPoints: Map<string, number>, current: Map<string, Current>, ps: number) {
  const rowsOut: PendingOut[] = [...p.points].map(([userId, r]) => ({ userId, r, viewer: viewerPoints.get(userId) ?? 0 }));
  const reach = new Map<string, { creator: number; viewer: number }>();
  for (const { userId, r, viewer } of rowsOut) {
    if (r.creatorOut === undefined && r.viewerOut === undefined) continue;
    // No row yet: this push creates it, and what it removed may be what it added.
    const cur = current.get(userId) ?? { creator_points: 0, viewer_points: 0, creator_reached_at: 0, viewer_reached_at: 0 };
    reach.set(userId, {
      creator: await reachAfter(db, userId, 'creator', Number(cur.creator_points) + r.creator, Number(cur.creator_reached_at), r.creatorAt, r.creatorOut, ps),
      viewer: await reachAfter(db, userId, 'viewer', Number(cur.viewer_points) + viewer, Number(cur.viewer_reached_at), r.viewerAt, r.viewerOut, ps),
    });
  }
  p.points.clear();
  p.days.clear();
  return { rowsOut, reach };
}

/**
 * A board's reach time after the buffer: 0 without points; recomputed from the rows (which hold the
 * push's writes by now) when a removed action was at least as new as the reach; else the later of
 * the reach and the newest added action.
 */
async function reachAfter(db: Db, userId: string, board: Board, points: number, was: number, added: number, removed: number | undefined, ps: number) {
  if (removed === undefined) return Math.max(was, added);
  if (points <= 0) return 0;
  return removed >= was ? newestCounted(db, userId, board, ps, {}) : Math.max(was, added);
}

/** The buffered day counts added in one statement; returns the viewer points they move per member. */
async function writePendingDays(db: Db, days: PendingScores['days'], cap: number): Promise<Map<string, number>> {
  const rows = [...days].flatMap(([userId, byDay]) => [...byDay].filter(([, n]) => n !== 0).map(([day, n]) => ({ userId, day, n })));
  const points = new Map<string, number>();
  if (!rows.length) return points;
  const added = new Map(rows.map((r) => [`${r.userId} ${r.day}`, r.n]));
  // A net removal's day row exists (its action was counted on it), so the insert arm only ever adds.
  const { rows: after } = await sql<{ user_id: string; day: number; actions: number }>`INSERT INTO viewer_days (user_id, day, actions)
    SELECT * FROM unnest(${rows.map((r) => r.userId)}::text[], ${rows.map((r) => r.day)}::integer[], ${rows.map((r) => r.n)}::integer[]) ORDER BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET actions = viewer_days.actions + excluded.actions RETURNING user_id, day, actions`.execute(db);
  addDayPoints(points, after, added, cap);
  return points;
}

/** The viewer points moved by days whose counts are now `after`, `added` (by "user day") ago: per day min(cap, now) - min(cap, before). */
export function addDayPoints(
  points: Map<string, number>,
  after: Array<{ user_id: string; day: number; actions: number }>,
  added: Map<string, number>,
  cap: number,
): void {
  for (const r of after) {
    const now = Number(r.actions);
    const was = now - (added.get(`${r.user_id} ${r.day}`) ?? 0);
    points.set(r.user_id, (points.get(r.user_id) ?? 0) + Math.min(cap, now) - Math.min(cap, was));
  }
}
