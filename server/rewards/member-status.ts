import { sql, type RawBuilder } from 'kysely';
import { lockScoringExclusive, lockScoringShared } from '#db/locks';
import type { Changes } from '../changes/changes';
import { DAY_MS, currentPeriodStart, eligibleP, eligibleUsers, readViewerCap, type Db } from './eligibility';
import type { Exclusion } from './newest-counted';
import { addPointsMany, ensureScoreRows, subtractPointsMany } from './score-writes';
import { applyViewerDays, type DaysChange } from './viewer-days';

/*
 * Suspended, voided and deleted members neither appear nor count: when a member stops being
 * eligible, every counted action between them and others is taken off the others' counters and
 * their own rows go; on reactivation it all comes back, computed from the rows. Each function runs
 * in the caller's transaction and is idempotent (the member's `scores` row is the marker of
 * "currently counted").
 */

interface Tally extends DaysChange {
  /** The other member. */
  userId: string;
  /** Likes + comment pairs: the actions that also move the creator board. */
  engagements: number;
  newestEngagement: number;
}

interface TallyRow {
  other: string;
  kind: string;
  day: number;
  n: number;
  newest: number;
}

/** Counted actions folded per other member, kind and day: `other` names the member, `rest` joins and filters `x`. */
async function tally(db: Db, other: RawBuilder<unknown>, actions: RawBuilder<unknown>, rest: RawBuilder<unknown>): Promise<Tally[]> {
  const { rows } = await sql<TallyRow>`
    SELECT ${other} AS other, x.kind AS kind, x.t / ${sql.lit(DAY_MS)} AS day, count(*) AS n, max(x.t) AS newest
    FROM (${actions}) x ${rest}
    GROUP BY 1, 2, 3`.execute(db);
  return merge(rows);
}

/**
 * The counted actions of this period (likes, one per comment pair timed by its first comment,
 * views) whose `by` column is `id`: by a member (`ref` is the video) or on a video (`ref` is the member).
 */
function countedActions(by: 'user_id' | 'video_id', id: string, ps: number) {
  const col = sql.ref(by);
  const ref = sql.ref(by === 'user_id' ? 'video_id' : 'user_id');
  return sql`SELECT ${ref} AS ref, created_at AS t, 'e' AS kind FROM likes WHERE ${col} = ${id} AND created_at > ${ps}
      UNION ALL SELECT ${ref}, min(created_at), 'e' FROM comments WHERE ${col} = ${id} AND created_at > ${ps} AND parent_id IS NULL AND deleted = 0 GROUP BY ${ref}
      UNION ALL SELECT ${ref}, created_at, 'v' FROM views WHERE ${col} = ${id} AND created_at > ${ps}`;
}

/** The member's counted actions (likes, comment pairs, views) on other eligible members' videos, per video owner and day. */
async function given(db: Db, userId: string, ps: number): Promise<Tally[]> {
  return tally(
    db,
    sql`v.user_id`,
    countedActions('user_id', userId, ps),
    sql`JOIN videos v ON v.id = x.ref JOIN profiles p ON p.id = v.user_id WHERE v.user_id <> ${userId} AND ${eligibleP(ps)}`,
  );
}

/** Other eligible members' counted actions on this member's videos, per actor and day. */
async function received(db: Db, userId: string, ps: number): Promise<Tally[]> {
  const actions = sql`SELECT l.user_id AS ref, l.created_at AS t, 'e' AS kind FROM videos v JOIN likes l ON l.video_id = v.id WHERE v.user_id = ${userId} AND l.created_at > ${ps}
      UNION ALL SELECT c.user_id, min(c.created_at), 'e' FROM videos v JOIN comments c ON c.video_id = v.id
        WHERE v.user_id = ${userId} AND c.created_at > ${ps} AND c.parent_id IS NULL AND c.deleted = 0 GROUP BY c.video_id, c.user_id
      UNION ALL SELECT w.user_id, w.created_at, 'v' FROM videos v JOIN views w ON w.video_id = v.id WHERE v.user_id = ${userId} AND w.created_at > ${ps}`;
  return tally(db, sql`x.ref`, actions, sql`JOIN profiles p ON p.id = x.ref WHERE x.ref <> ${userId} AND ${eligibleP(ps)}`);
}

function merge(rows: TallyRow[]): Tally[] {
  const by = new Map<string, Tally>();
  for (const r of rows) {
    let t = by.get(r.other);
    if (!t) {
      t = { userId: r.other, engagements: 0, newestEngagement: 0, newest: 0, days: new Map() };
      by.set(r.other, t);
    }
    const n = Number(r.n);
    const newest = Number(r.newest);
    if (r.kind === 'e') {
      t.engagements += n;
      t.newestEngagement = Math.max(t.newestEngagement, newest);
    }
    t.days.set(Number(r.day), (t.days.get(Number(r.day)) ?? 0) + n);
    t.newest = Math.max(t.newest, newest);
  }
  return [...by.values()];
}

/** All of a member's tallies as one: their own totals on the other side. */
function total(userId: string, tallies: Tally[]): Tally {
  const all: Tally = { userId, engagements: 0, newestEngagement: 0, newest: 0, days: new Map() };
  for (const t of tallies) {
    all.engagements += t.engagements;
    all.newestEngagement = Math.max(all.newestEngagement, t.newestEngagement);
    all.newest = Math.max(all.newest, t.newest);
    for (const [d, n] of t.days) all.days.set(d, (all.days.get(d) ?? 0) + n);
  }
  return all;
}

const creatorChange = (t: Tally) => ({ userId: t.userId, n: t.engagements, newest: t.newestEngagement });

async function hasRow(db: Db, userId: string): Promise<boolean> {
  return !!(await db.selectFrom('scores').select('user_id').where('user_id', '=', userId).executeTakeFirst());
}

async function withRows(db: Db, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('scores')
      .select('user_id')
      .where('user_id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.add(r.user_id);
  }
  return out;
}

/** Takes the member's counted actions off everyone else and drops their rows. */
async function removeContributions(db: Db, userId: string, changes: Changes): Promise<boolean> {
  if (!(await hasRow(db, userId))) return false;
  const ps = await currentPeriodStart(db);
  const out = await given(db, userId, ps);
  const inc = await received(db, userId, ps);
  // The member may still be eligible (deletion): leave their rows out of every reach-time lookup.
  const exclude: Exclusion = { userId };
  const counted = await withRows(db, [...new Set([...out, ...inc].map((t) => t.userId))]);
  await subtractPointsMany(db, 'creator', out.filter((t) => counted.has(t.userId)).map(creatorChange), ps, exclude);
  await applyViewerDays(
    db,
    inc.filter((t) => counted.has(t.userId)),
    -1,
    ps,
    exclude,
    await readViewerCap(db),
  );
  await db.deleteFrom('viewer_days').where('user_id', '=', userId).execute();
  await db.deleteFrom('scores').where('user_id', '=', userId).execute();
  changes.leaderboard();
  return true;
}

/**
 * Call in the transaction that suspends a member (is_active = 0) or voids their period, after that
 * write. Returns whether the leaderboards changed (then a leaderboard change is declared on `changes`).
 */
export async function onUserSuspended(db: Db, userId: string, changes: Changes): Promise<boolean> {
  // Callers take it before the profile write already (it is re-entrant); here for any that do not.
  await lockScoringExclusive(db);
  if ((await eligibleUsers(db, [userId])).size) throw new Error('onUserSuspended: call it after the profile is suspended');
  return removeContributions(db, userId, changes);
}

/**
 * Call in the transaction that deletes a member, BEFORE anything of theirs is deleted (first
 * thing). Their actions stop counting at once; undoing them one by one afterwards (applyScoreEvent
 * with delta -1, deleteVideoInTx) then moves no points, and the rest goes with ON DELETE CASCADE.
 */
export async function onUserDeleted(db: Db, userId: string, changes: Changes): Promise<boolean> {
  await lockScoringExclusive(db);
  return removeContributions(db, userId, changes);
}

/**
 * Call in the transaction that makes a member eligible again (is_active = 1 with account_status
 * 'active': reactivation, or a payment activating the account), after the profile update. Their
 * actions of this period count again, for them and for the others involved.
 */
export async function onUserReactivated(db: Db, userId: string, changes: Changes): Promise<boolean> {
  // Also reached from a payment activating the account (payments/capture.ts).
  await lockScoringExclusive(db);
  if (!(await eligibleUsers(db, [userId])).size) throw new Error('onUserReactivated: call it after the profile is active again');
  if (await hasRow(db, userId)) return false;
  const ps = await currentPeriodStart(db);
  const out = await given(db, userId, ps);
  const inc = await received(db, userId, ps);
  await ensureScoreRows(db, [userId, ...new Set([...out, ...inc].map((t) => t.userId))]);
  const cap = await readViewerCap(db);
  await addPointsMany(db, 'creator', [...out.map(creatorChange), creatorChange(total(userId, inc))]);
  await applyViewerDays(db, [...inc, total(userId, out)], 1, ps, {}, cap);
  const changed = out.length > 0 || inc.length > 0;
  if (changed) changes.leaderboard();
  return changed;
}

/**
 * Call in the transaction that deletes a video, before the video row is deleted: takes the
 * video's counted likes, comment pairs and views off the owner and the actors, reading the rows
 * once, and deletes those likes, comments and views (so nothing can undo them a second time).
 * Returns whether points moved.
 */
export async function onVideoDeleted(db: Db, videoId: string, changes: Changes): Promise<boolean> {
  // It moves points: the period and eligibility it reads must hold until commit (re-entrant: a push holds it already).
  await lockScoringShared(db);
  const video = await db.selectFrom('videos').select('user_id').where('id', '=', videoId).executeTakeFirst();
  if (!video) return false;
  const owner = video.user_id;
  if (!(await hasRow(db, owner)) || !(await eligibleUsers(db, [owner])).size) {
    await removeVideoActions(db, videoId);
    return false;
  }
  const ps = await currentPeriodStart(db);
  const tallies = await tally(
    db,
    sql`x.ref`,
    countedActions('video_id', videoId, ps),
    sql`JOIN profiles p ON p.id = x.ref JOIN scores s ON s.user_id = x.ref WHERE x.ref <> ${owner} AND ${eligibleP(ps)}`,
  );
  await removeVideoActions(db, videoId);
  if (!tallies.length) return false;
  const exclude: Exclusion = { videoId };
  await applyViewerDays(db, tallies, -1, ps, exclude, await readViewerCap(db));
  await subtractPointsMany(db, 'creator', [creatorChange(total(owner, tallies))], ps, exclude);
  changes.leaderboard();
  return true;
}

async function removeVideoActions(db: Db, videoId: string): Promise<void> {
  await db.deleteFrom('likes').where('video_id', '=', videoId).execute();
  await db.deleteFrom('comments').where('video_id', '=', videoId).execute();
  await db.deleteFrom('views').where('video_id', '=', videoId).execute();
}
