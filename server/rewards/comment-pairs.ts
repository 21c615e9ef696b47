import { sql } from 'kysely';
import { dayOf, type Db } from './eligibility';
import { applyScoreEvent, bothCounted, capOf, periodOf, settleScores, type ScoreMemo } from './score-events';
import { upsertPoints } from './score-writes';
import { bumpViewerDay } from './viewer-days';

/*
 * A member's comments on one video count once for the leaderboards: the pair (member, video) is one
 * action, timed by the member's earliest comment on that video in the current period. Only
 * top-level comments that stand count (parent_id IS NULL AND deleted = 0): replies and comment
 * likes earn nothing, so threads cannot farm prizes (docs/rewards.md), and a tombstone no longer
 * counts. Every comment row that is not a tombstone still counts in videos.comments_count.
 */

/** Whether the member commented on this video in this period, apart from `exceptId` (one probe of comments_user_video). */
async function commentedInPeriod(db: Db, c: { userId: string; videoId: string; exceptId: string }, ps: number): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`SELECT 1 AS one FROM comments
    WHERE user_id = ${c.userId} AND video_id = ${c.videoId} AND created_at > ${ps} AND id <> ${c.exceptId}
    AND parent_id IS NULL AND deleted = 0 LIMIT 1`.execute(db);
  return rows.length > 0;
}

/**
 * Call in the transaction that added a top-level comment, AFTER inserting its row: whether this comment
 * starts a pair, i.e. is the member's only one on the video in this period (then call commentAdded).
 */
export async function startedPair(db: Db, c: { userId: string; videoId: string; commentId: string }, memo?: ScoreMemo): Promise<boolean> {
  return !(await commentedInPeriod(db, { userId: c.userId, videoId: c.videoId, exceptId: c.commentId }, await periodOf(db, memo)));
}

/** After the row of a comment that starts a pair was inserted: the pair counts from its time. */
export async function commentAdded(db: Db, c: { userId: string; creatorId: string; createdAt: number }, memo?: ScoreMemo): Promise<boolean> {
  return applyScoreEvent(db, { kind: 'comment', actorId: c.userId, creatorId: c.creatorId, delta: 1, occurredAt: c.createdAt }, memo);
}

/**
 * Call after a top-level comment row was deleted or made a tombstone. Removing the member's last comment of the period on the
 * video removes the pair; removing their earliest of several moves the pair's time to the next one
 * (which can move its viewer point to another day); removing any other changes nothing.
 */
export async function commentRemoved(db: Db, c: { userId: string; videoId: string; creatorId: string; createdAt: number }, memo?: ScoreMemo): Promise<boolean> {
  const ps = await periodOf(db, memo);
  if (!(c.createdAt > ps) || c.userId === c.creatorId) return false;
  // Not a plain addition: a push's buffered points must be in the rows first.
  await settleScores(db, memo);
  const { rows } = await sql<{ t: number | null }>`SELECT min(created_at) AS t FROM comments
    WHERE user_id = ${c.userId} AND video_id = ${c.videoId} AND created_at > ${ps} AND parent_id IS NULL AND deleted = 0`.execute(db);
  const next = rows[0]?.t == null ? null : Number(rows[0].t);
  if (next === null) return applyScoreEvent(db, { kind: 'comment', actorId: c.userId, creatorId: c.creatorId, delta: -1, occurredAt: c.createdAt }, memo);
  if (c.createdAt >= next || !(await bothCounted(db, c.userId, c.creatorId))) return false;
  // The pair's time moves later, to `next`: both reach times become max(reach, next) (the old time
  // was at most the reach, and every other counted action is unchanged).
  await upsertPoints(db, c.creatorId, 'creator', 0, next);
  const cap = await capOf(db, memo);
  let delta = 0;
  if (dayOf(c.createdAt) !== dayOf(next)) {
    const before = await bumpViewerDay(db, c.userId, dayOf(c.createdAt), -1);
    const after = await bumpViewerDay(db, c.userId, dayOf(next), 1);
    delta = (after <= cap ? 1 : 0) - (before < cap ? 1 : 0);
  }
  await upsertPoints(db, c.userId, 'viewer', delta, next);
  return true;
}
