import { sql } from 'kysely';
import { currentPeriodStart, dayOf, eligibleUsers, readViewerCap, type Db } from './eligibility';
import { subtractPoints, upsertPoints, writePendingScores, type PendingScores } from './score-writes';
import { isPostgres } from './dialect';
import { writePendingScoresSqlite } from './pending-scores-sqlite';
import { bumpViewerDay } from './viewer-days';

/*
 * The maintained leaderboard counters (`scores`, `viewer_days`). The rule they keep, and that
 * recomputeScores() checks from the rows (docs/rewards.md, docs/decisions/0001-prizes-that-cannot-be-farmed.md):
 *
 *   an action COUNTS when it was made after the newest distribution (created_at > period start),
 *   the actor is not the video's owner, and both are eligible (is_active = 1, account_status =
 *   'active', not voided for this period). The actions are: a like; a comment PAIR (member, video),
 *   i.e. a member's comments on one video count once, timed by their earliest comment of the
 *   period; a qualifying view.
 *
 *   creator points = counted likes + comment pairs received. Viewer points = per UTC day of the
 *   actions' time, min(daily cap, counted likes + comment pairs + views given that day), summed.
 *   A board's reach time is the time of the newest counted action on that board (0 with no
 *   points); it stays a pure function of the rows. Ties: earlier reach first, then user id.
 *
 * Invariant that makes suspension idempotent: an eligible member with a counted action always has a
 * `scores` row, and an ineligible one never has (nor `viewer_days` rows). A removal only subtracts
 * when both rows exist.
 */

export { ELIGIBLE_STATUS, currentPeriodStart, eligibleUsers, type Board, type Db } from './eligibility';
export { ensureScoreRows, addPointsMany, subtractPointsMany, subtractPoints, type PointsChange, type PendingScores } from './score-writes';
export { newestCounted, type Exclusion } from './newest-counted';

/**
 * One thing that moves leaderboard points. Every write path that adds or removes a like, a comment
 * pair (see comment-pairs.ts) or a qualifying view calls applyScoreEvent in the same transaction;
 * a removal is applied after its row is deleted.
 */
export interface ScoreEvent {
  kind: 'like' | 'comment' | 'view';
  /** Who liked, commented or watched. */
  actorId: string;
  /** Owner of the video. */
  creatorId: string;
  /** +1 when added, -1 when removed. */
  delta: 1 | -1;
  /** The action's time (a removal passes the original time; a comment pair its earliest comment). */
  occurredAt: number;
  /** Now. Not used for points: reach times come from the rows (see above). */
  at?: number;
}

/**
 * Facts read once per push batch instead of once per action: the period start, who is eligible, the
 * daily cap, and each viewer's watch-time window (view-rules.ts). Only valid while the caller holds
 * the write transaction and nothing in it distributes prizes, changes a member's status or the
 * cap (no sync mutation does).
 */
export interface ScoreMemo {
  periodStart?: number;
  cap?: number;
  eligible: Map<string, boolean>;
  viewWindows: Map<string, { start: number; used: number }>;
  /**
   * Set by a push: its actions, added and removed, are buffered here and written at the end of the
   * push (flushScores): on PostgreSQL so concurrent pushes lock `scores` rows only for their last
   * statements, on SQLite so a push of 100 likes writes each member's row once instead of three
   * statements per like. Anything that reads or rewrites scores rows other than through
   * applyScoreEvent (a comment's removal, a video's deletion) calls settleScores first (it must
   * see the real rows). The invariant above holds at the commit, which is all a reader can see.
   */
  pending?: PendingScores;
  /**
   * SQLite's push runs each mutation in a savepoint: the mutation's actions wait here until it is
   * released (keepStaged) and go with a rollback to it (dropStaged), and a settleScores inside it
   * keeps the buffer it wrote in `settled`, which a rollback (undoing that write) puts back.
   */
  staged?: { events: Array<{ e: ScoreEvent; day: number }>; settled?: Pick<PendingScores, 'points' | 'days'> } | undefined;
}

export const newScoreMemo = (): ScoreMemo => ({ eligible: new Map(), viewWindows: new Map() });

/** A buffer for a push whose transaction may write the scores rows of `lockUsers` (its member and its videos' owners). */
export const newPendingScores = (lockUsers: string[]): PendingScores => ({ points: new Map(), days: new Map(), lockUsers, locked: false });

/** A push starts with an empty buffer (on SQLite the memo outlives a push that was rolled back). */
export function clearPendingScores(memo: ScoreMemo): void {
  memo.pending?.points.clear();
  memo.pending?.days.clear();
  memo.staged = undefined;
}

/** Before one mutation in a savepoint (SQLite): its actions are held apart until keepStaged. */
export function stageScores(memo: ScoreMemo): void {
  if (memo.pending) memo.staged = { events: [] };
}

/** The mutation's savepoint was released: its actions join the push's buffer. */
export function keepStaged(memo: ScoreMemo): void {
  const staged = memo.staged;
  memo.staged = undefined;
  if (staged && memo.pending) for (const { e, day } of staged.events) buffer(memo.pending, e, day);
}

/** The mutation was rolled back to its savepoint: its actions go, and a buffer it wrote (undone by the rollback) comes back. */
export function dropStaged(memo: ScoreMemo): void {
  const settled = memo.staged?.settled;
  memo.staged = undefined;
  if (!settled || !memo.pending) return;
  memo.pending.points = settled.points;
  memo.pending.days = settled.days;
}

/** Before anything that reads or rewrites scores rows: locks all of the push's rows (PostgreSQL, in user id order) and writes the buffer. */
export async function settleScores(trx: Db, memo: ScoreMemo | undefined): Promise<void> {
  if (!memo?.pending) return;
  const staged = memo.staged;
  if (staged) {
    // A copy of the buffer before this mutation (the write empties it, buffer() changes its rows): put back if the mutation is rolled back.
    staged.settled ??= {
      points: new Map([...memo.pending.points].map(([id, r]) => [id, { ...r }])),
      days: new Map([...memo.pending.days].map(([id, d]) => [id, new Map(d)])),
    };
    for (const { e, day } of staged.events) buffer(memo.pending, e, day);
    staged.events = [];
  }
  await writePending(trx, memo, memo.pending);
}

/** At the end of the push's transaction, before its change log: writes what was buffered, locking only then. */
export async function flushScores(trx: Db, memo: ScoreMemo | undefined): Promise<void> {
  if (memo?.pending?.points.size) await writePending(trx, memo, memo.pending);
}

async function writePending(trx: Db, memo: ScoreMemo, pending: PendingScores): Promise<void> {
  const write = isPostgres(trx) ? writePendingScores : writePendingScoresSqlite;
  await write(trx, pending, await capOf(trx, memo), await periodOf(trx, memo));
}

/**
 * An action into the buffer: what upsertPoints / subtractPoints and bumpViewerDay would write, summed
 * per member (viewer points come from the day rows at the flush, reach times that a removal may
 * have taken are recomputed there). A removal needs no "both have rows" check here: both members
 * are eligible (checked before), so by the invariant a counted action of theirs has both rows, or
 * its addition is in this buffer.
 */
function buffer(p: PendingScores, e: ScoreEvent, day: number): void {
  const row = (id: string) => {
    let r = p.points.get(id);
    if (!r) p.points.set(id, (r = { creator: 0, creatorAt: 0, viewerAt: 0 }));
    return r;
  };
  // A view gives the creator no points, but the creator's row must exist all the same (the invariant).
  const creator = row(e.creatorId);
  if (e.kind !== 'view') {
    creator.creator += e.delta;
    if (e.delta > 0) creator.creatorAt = Math.max(creator.creatorAt, e.occurredAt);
    else creator.creatorOut = Math.max(creator.creatorOut ?? 0, e.occurredAt);
  }
  const viewer = row(e.actorId);
  // Over the cap the action still counts (it is the newest: the reach time), only without a point.
  if (e.delta > 0) viewer.viewerAt = Math.max(viewer.viewerAt, e.occurredAt);
  else viewer.viewerOut = Math.max(viewer.viewerOut ?? 0, e.occurredAt);
  let days = p.days.get(e.actorId);
  if (!days) p.days.set(e.actorId, (days = new Map()));
  days.set(day, (days.get(day) ?? 0) + e.delta);
}

export async function periodOf(trx: Db, memo: ScoreMemo | undefined): Promise<number> {
  return memo ? (memo.periodStart ??= await currentPeriodStart(trx)) : currentPeriodStart(trx);
}

export async function capOf(trx: Db, memo: ScoreMemo | undefined): Promise<number> {
  return memo ? (memo.cap ??= await readViewerCap(trx)) : readViewerCap(trx);
}

/**
 * Reads in one statement whether each of these members may score, for the memo's batch: a push of
 * likes of many creators' videos otherwise asks once per creator, a round trip each.
 */
export async function primeEligibility(trx: Db, memo: ScoreMemo, ids: string[]): Promise<void> {
  const unknown = [...new Set(ids)].filter((id) => !memo.eligible.has(id));
  if (!unknown.length) return;
  const found = await eligibleUsers(trx, unknown, await periodOf(trx, memo));
  for (const id of unknown) memo.eligible.set(id, found.has(id));
}

async function bothEligible(trx: Db, a: string, b: string, ps: number, memo: ScoreMemo | undefined): Promise<boolean> {
  if (!memo) return (await eligibleUsers(trx, [a, b], ps)).size === 2;
  const unknown = [a, b].filter((id) => !memo.eligible.has(id));
  if (unknown.length) {
    const found = await eligibleUsers(trx, unknown, ps);
    for (const id of unknown) memo.eligible.set(id, found.has(id));
  }
  return memo.eligible.get(a) === true && memo.eligible.get(b) === true;
}

/** Whether both members have their scores rows, i.e. actions between them are counted now (the invariant). */
export async function bothCounted(trx: Db, a: string, b: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM scores WHERE user_id IN (${a}, ${b})`.execute(trx);
  return Number(rows[0]?.n ?? 0) >= 2;
}

/** Applies one added or removed action; returns whether it counts (points or reach may have moved). */
export async function applyScoreEvent(trx: Db, e: ScoreEvent, memo?: ScoreMemo): Promise<boolean> {
  // Own videos never score (docs/decisions/0009-scoring-rules.md), and only this period's actions count.
  if (e.actorId === e.creatorId) return false;
  const ps = await periodOf(trx, memo);
  if (!(e.occurredAt > ps)) return false;
  if (!(await bothEligible(trx, e.actorId, e.creatorId, ps, memo))) return false;
  const day = dayOf(e.occurredAt);
  if (memo?.pending) {
    if (memo.staged) memo.staged.events.push({ e, day });
    else buffer(memo.pending, e, day);
    return true;
  }
  const cap = await capOf(trx, memo);
  if (e.delta > 0) {
    // A view gives the creator no points, but the creator's row must exist all the same (the invariant).
    const creatorGets = e.kind === 'view' ? 0 : 1;
    await upsertPoints(trx, e.creatorId, 'creator', creatorGets, creatorGets ? e.occurredAt : 0);
    const n = await bumpViewerDay(trx, e.actorId, day, 1);
    // Over the cap the action still counts (it is the newest: the reach time), only without a point.
    await upsertPoints(trx, e.actorId, 'viewer', n <= cap ? 1 : 0, e.occurredAt);
    return true;
  }
  // A removed action only counted if both members still have their rows (see the invariant above):
  // after onUserDeleted, the loops that undo that user's actions one by one change nothing.
  if (!(await bothCounted(trx, e.actorId, e.creatorId))) return false;
  if (e.kind !== 'view') await subtractPoints(trx, e.creatorId, 'creator', 1, e.occurredAt, ps, {});
  const left = await bumpViewerDay(trx, e.actorId, day, -1);
  await subtractPoints(trx, e.actorId, 'viewer', left < cap ? 1 : 0, e.occurredAt, ps, {});
  return true;
}
