import { sql } from 'kysely';
import { logChange } from '../sync/change-log';
import { addPointsMany, currentPeriodStart, eligibleUsers, ensureScoreRows, subtractPointsMany, type Db, type Exclusion } from './score-events';

/*
 * Suspended and deleted members neither appear nor count: when a member stops being eligible, every
 * counted action between them and others is taken off the others' counters and their own row goes;
 * on reactivation it all comes back, computed from the rows. Each function runs in the caller's
 * transaction and is idempotent (the member's `scores` row is the marker of "currently counted").
 */

interface Tally {
  other: string;
  /** Likes + comments: the points that also move the creator board. */
  engagements: number;
  /** Views: viewer board only. */
  views: number;
  newestEngagement: number;
  newest: number;
}

const ELIGIBLE_P = sql`p.is_active = 1 AND p.account_status = 'active'`;

/** The member's counted actions on other eligible members' videos, per video owner. */
async function given(db: Db, userId: string, ps: number): Promise<Tally[]> {
  const { rows } = await sql<{ other: string; kind: string; n: number; newest: number }>`
    SELECT v.user_id AS other, x.kind AS kind, count(*) AS n, max(x.t) AS newest FROM (
      SELECT video_id, created_at AS t, 'e' AS kind FROM likes WHERE user_id = ${userId} AND created_at > ${ps}
      UNION ALL SELECT video_id, created_at, 'e' FROM comments WHERE user_id = ${userId} AND created_at > ${ps}
      UNION ALL SELECT video_id, created_at, 'v' FROM views WHERE user_id = ${userId} AND created_at > ${ps}
    ) x JOIN videos v ON v.id = x.video_id JOIN profiles p ON p.id = v.user_id
    WHERE v.user_id <> ${userId} AND ${ELIGIBLE_P}
    GROUP BY v.user_id, x.kind`.execute(db);
  return merge(rows);
}

/** Other eligible members' counted actions on this member's videos, per actor. */
async function received(db: Db, userId: string, ps: number): Promise<Tally[]> {
  const { rows } = await sql<{ other: string; kind: string; n: number; newest: number }>`
    SELECT x.user_id AS other, x.kind AS kind, count(*) AS n, max(x.t) AS newest FROM (
      SELECT l.user_id, l.created_at AS t, 'e' AS kind FROM videos v JOIN likes l ON l.video_id = v.id WHERE v.user_id = ${userId} AND l.created_at > ${ps}
      UNION ALL SELECT c.user_id, c.created_at, 'e' FROM videos v JOIN comments c ON c.video_id = v.id WHERE v.user_id = ${userId} AND c.created_at > ${ps}
      UNION ALL SELECT w.user_id, w.created_at, 'v' FROM videos v JOIN views w ON w.video_id = v.id WHERE v.user_id = ${userId} AND w.created_at > ${ps}
    ) x JOIN profiles p ON p.id = x.user_id
    WHERE x.user_id <> ${userId} AND ${ELIGIBLE_P}
    GROUP BY x.user_id, x.kind`.execute(db);
  return merge(rows);
}

function merge(rows: Array<{ other: string; kind: string; n: number; newest: number }>): Tally[] {
  const by = new Map<string, Tally>();
  for (const r of rows) {
    const t = by.get(r.other) ?? { other: r.other, engagements: 0, views: 0, newestEngagement: 0, newest: 0 };
    const n = Number(r.n);
    const newest = Number(r.newest);
    if (r.kind === 'e') {
      t.engagements += n;
      t.newestEngagement = Math.max(t.newestEngagement, newest);
    } else {
      t.views += n;
    }
    t.newest = Math.max(t.newest, newest);
    by.set(r.other, t);
  }
  return [...by.values()];
}

async function hasRow(db: Db, userId: string): Promise<boolean> {
  return !!(await db.selectFrom('scores').select('user_id').where('user_id', '=', userId).executeTakeFirst());
}

async function withRows(db: Db, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db.selectFrom('scores').select('user_id').where('user_id', 'in', chunk).execute();
    for (const r of rows) out.add(r.user_id);
  }
  return out;
}

/** Takes the member's counted actions off everyone else and drops their row. */
async function removeContributions(db: Db, userId: string, now: number): Promise<boolean> {
  if (!(await hasRow(db, userId))) return false;
  const ps = await currentPeriodStart(db);
  const out = await given(db, userId, ps);
  const inc = await received(db, userId, ps);
  // The member may still be eligible (deletion): leave their rows out of every reach-time lookup.
  const exclude: Exclusion = { userId };
  const counted = await withRows(db, [...new Set([...out, ...inc].map((t) => t.other))]);
  const creators = out.filter((t) => counted.has(t.other)).map((t) => ({ userId: t.other, n: t.engagements, newest: t.newestEngagement }));
  const viewers = inc.filter((t) => counted.has(t.other)).map((t) => ({ userId: t.other, n: t.engagements + t.views, newest: t.newest }));
  await subtractPointsMany(db, 'creator', creators, ps, exclude);
  await subtractPointsMany(db, 'viewer', viewers, ps, exclude);
  await db.deleteFrom('scores').where('user_id', '=', userId).execute();
  await logChange(db, { entity: 'leaderboard', entityId: 'all' }, now);
  return true;
}

/**
 * Call in the transaction that suspends a member (is_active = 0), after the profile update.
 * Returns whether the leaderboards changed (a 'leaderboard' change is logged; poke 'leaderboard').
 */
export async function onUserSuspended(db: Db, userId: string, now: number): Promise<boolean> {
  if ((await eligibleUsers(db, [userId])).size) throw new Error('onUserSuspended: call it after the profile is suspended');
  return removeContributions(db, userId, now);
}

/**
 * Call in the transaction that deletes a member, BEFORE anything of theirs is deleted (first
 * thing). Their actions stop counting at once; undoing them one by one afterwards (applyScoreEvent
 * with delta -1, deleteVideoInTx) then moves no points, and the rest goes with ON DELETE CASCADE.
 */
export async function onUserDeleted(db: Db, userId: string, now: number): Promise<boolean> {
  return removeContributions(db, userId, now);
}

/**
 * Call in the transaction that makes a member eligible again (is_active = 1 with account_status
 * 'active': reactivation, or a payment activating the account), after the profile update. Their
 * actions of this period count again, for them and for the others involved.
 */
export async function onUserReactivated(db: Db, userId: string, now: number): Promise<boolean> {
  if (!(await eligibleUsers(db, [userId])).size) throw new Error('onUserReactivated: call it after the profile is active again');
  if (await hasRow(db, userId)) return false;
  const ps = await currentPeriodStart(db);
  const out = await given(db, userId, ps);
  const inc = await received(db, userId, ps);
  await ensureScoreRows(db, [userId, ...new Set([...out, ...inc].map((t) => t.other))]);
  let viewer = 0;
  let viewerNewest = 0;
  for (const t of out) {
    viewer += t.engagements + t.views;
    viewerNewest = Math.max(viewerNewest, t.newest);
  }
  let creator = 0;
  let creatorNewest = 0;
  for (const t of inc) {
    creator += t.engagements;
    creatorNewest = Math.max(creatorNewest, t.newestEngagement);
  }
  await addPointsMany(db, 'creator', [...out.map((t) => ({ userId: t.other, n: t.engagements, newest: t.newestEngagement })), { userId, n: creator, newest: creatorNewest }]);
  await addPointsMany(db, 'viewer', [...inc.map((t) => ({ userId: t.other, n: t.engagements + t.views, newest: t.newest })), { userId, n: viewer, newest: viewerNewest }]);
  const changed = out.length > 0 || inc.length > 0;
  if (changed) await logChange(db, { entity: 'leaderboard', entityId: 'all' }, now);
  return changed;
}

/**
 * Call in the transaction that deletes a video, before the video row is deleted: takes the
 * video's counted likes, comments and views off the owner and the actors, reading the rows once,
 * and deletes those likes, comments and views (so nothing can undo them a second time). Returns
 * whether points moved.
 */
export async function onVideoDeleted(db: Db, videoId: string, now: number): Promise<boolean> {
  const video = await db.selectFrom('videos').select('user_id').where('id', '=', videoId).executeTakeFirst();
  if (!video) return false;
  const owner = video.user_id;
  if (!(await hasRow(db, owner)) || !(await eligibleUsers(db, [owner])).size) {
    await removeVideoActions(db, videoId);
    return false;
  }
  const ps = await currentPeriodStart(db);
  const { rows } = await sql<{ other: string; kind: string; n: number; newest: number }>`
    SELECT x.user_id AS other, x.kind AS kind, count(*) AS n, max(x.t) AS newest FROM (
      SELECT user_id, created_at AS t, 'e' AS kind FROM likes WHERE video_id = ${videoId} AND created_at > ${ps}
      UNION ALL SELECT user_id, created_at, 'e' FROM comments WHERE video_id = ${videoId} AND created_at > ${ps}
      UNION ALL SELECT user_id, created_at, 'v' FROM views WHERE video_id = ${videoId} AND created_at > ${ps}
    ) x JOIN profiles p ON p.id = x.user_id JOIN scores s ON s.user_id = x.user_id
    WHERE x.user_id <> ${owner} AND ${ELIGIBLE_P}
    GROUP BY x.user_id, x.kind`.execute(db);
  const tallies = merge(rows);
  await removeVideoActions(db, videoId);
  if (!tallies.length) return false;
  const exclude: Exclusion = { videoId };
  let engagements = 0;
  let newestEngagement = 0;
  for (const t of tallies) {
    engagements += t.engagements;
    newestEngagement = Math.max(newestEngagement, t.newestEngagement);
  }
  await subtractPointsMany(db, 'viewer', tallies.map((t) => ({ userId: t.other, n: t.engagements + t.views, newest: t.newest })), ps, exclude);
  await subtractPointsMany(db, 'creator', [{ userId: owner, n: engagements, newest: newestEngagement }], ps, exclude);
  await logChange(db, { entity: 'leaderboard', entityId: 'all' }, now);
  return true;
}

async function removeVideoActions(db: Db, videoId: string): Promise<void> {
  await db.deleteFrom('likes').where('video_id', '=', videoId).execute();
  await db.deleteFrom('comments').where('video_id', '=', videoId).execute();
  await db.deleteFrom('views').where('video_id', '=', videoId).execute();
}
