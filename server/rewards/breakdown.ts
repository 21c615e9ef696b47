import { sql } from 'kysely';
import { lockScoringExclusive } from '#db/locks';
import { currentPeriodStart, eligibleP, readViewerCap, type Db } from './eligibility';
import { BEST_USERS, BEST_VIEWERS, topOfBoard } from './leaderboards';
import { onUserSuspended } from './member-status';
import type { Changes } from '../changes/changes';
import type { RewardsBreakdown, RewardsBreakdownEntry } from '#sync/rest-api/admin';

/** Where one member's points of the current period come from (the rule in score-events.ts), read from the rows. */
async function sourcesOf(db: Db, userId: string, ps: number) {
  const ok = eligibleP(ps);
  const { rows } = await sql<{ likes_received: number; commenters: number; likes_given: number; comments_given: number; views: number }>`SELECT
      (SELECT count(*) FROM videos v JOIN likes l ON l.video_id = v.id JOIN profiles p ON p.id = l.user_id
        WHERE v.user_id = ${userId} AND l.created_at > ${ps} AND l.user_id <> ${userId} AND ${ok}) AS likes_received,
      (SELECT count(*) FROM (SELECT 1 FROM videos v JOIN comments c ON c.video_id = v.id JOIN profiles p ON p.id = c.user_id
        WHERE v.user_id = ${userId} AND c.created_at > ${ps} AND c.parent_id IS NULL AND c.deleted = 0 AND c.user_id <> ${userId} AND ${ok}
        GROUP BY c.video_id, c.user_id) AS pairs) AS commenters,
      (SELECT count(*) FROM likes l JOIN videos v ON v.id = l.video_id JOIN profiles p ON p.id = v.user_id
        WHERE l.user_id = ${userId} AND l.created_at > ${ps} AND v.user_id <> ${userId} AND ${ok}) AS likes_given,
      (SELECT count(DISTINCT c.video_id) FROM comments c JOIN videos v ON v.id = c.video_id JOIN profiles p ON p.id = v.user_id
        WHERE c.user_id = ${userId} AND c.created_at > ${ps} AND c.parent_id IS NULL AND c.deleted = 0 AND v.user_id <> ${userId} AND ${ok}) AS comments_given,
      (SELECT count(*) FROM views w JOIN videos v ON v.id = w.video_id JOIN profiles p ON p.id = v.user_id
        WHERE w.user_id = ${userId} AND w.created_at > ${ps} AND v.user_id <> ${userId} AND ${ok}) AS views`.execute(db);
  const r = rows[0]!;
  return {
    likes_received: Number(r.likes_received),
    commenters: Number(r.commenters),
    likes_given: Number(r.likes_given),
    comments_given: Number(r.comments_given),
    views: Number(r.views),
  };
}

/**
 * The leaders of both boards (top 20 creators, top 3 viewers) with their points by source: likes
 * received and distinct commenters (creator), likes given, videos commented on and views (viewer),
 * and how many viewer actions the daily cap left without a point. Plus who was voided this period.
 */
export async function readRewardsBreakdown(db: Db): Promise<RewardsBreakdown> {
  const ps = await currentPeriodStart(db);
  const creators = await topOfBoard(db, 'creator', BEST_USERS);
  const viewers = await topOfBoard(db, 'viewer', BEST_VIEWERS);
  const ids = [...new Set([...creators, ...viewers].map((r) => r.user_id))];
  const leaders: RewardsBreakdownEntry[] = [];
  for (const id of ids) {
    const score = await db.selectFrom('scores').select(['creator_points', 'viewer_points']).where('user_id', '=', id).executeTakeFirst();
    const s = await sourcesOf(db, id, ps);
    const creatorRank = creators.findIndex((r) => r.user_id === id);
    const viewerRank = viewers.findIndex((r) => r.user_id === id);
    const viewerPoints = Number(score?.viewer_points ?? 0);
    leaders.push({
      user_id: id,
      user_name: [...creators, ...viewers].find((r) => r.user_id === id)!.user_name,
      creator: {
        rank: creatorRank < 0 ? null : creatorRank + 1,
        points: Number(score?.creator_points ?? 0),
        likes_received: s.likes_received,
        commenters: s.commenters,
      },
      viewer: {
        rank: viewerRank < 0 ? null : viewerRank + 1,
        points: viewerPoints,
        likes_given: s.likes_given,
        comments_given: s.comments_given,
        views: s.views,
        capped: s.likes_given + s.comments_given + s.views - viewerPoints,
      },
    });
  }
  const voided = await db
    .selectFrom('reward_voids')
    .innerJoin('profiles', 'profiles.id', 'reward_voids.user_id')
    .select(['reward_voids.user_id', 'profiles.name as user_name', 'reward_voids.created_at'])
    .where('reward_voids.period_start', '=', ps)
    .orderBy('reward_voids.created_at', 'desc')
    .execute();
  return {
    period_start: ps,
    viewer_daily_points_cap: await readViewerCap(db),
    leaders,
    voided: voided.map((v) => ({ user_id: v.user_id, user_name: v.user_name, created_at: Number(v.created_at) })),
  };
}

/**
 * Takes a member out of the current period's scoring (an admin's decision, e.g. after farming):
 * their points go, and so do the points their actions gave others and others' actions on their
 * videos gave, exactly as a suspension would, but their account keeps working. It lasts until the
 * next distribution. Returns null for an unknown member; created: false if already voided.
 */
export async function voidMember(db: Db, changes: Changes, input: { userId: string; adminId: string }) {
  // A void changes eligibility: no push may move points between reading the period and commit.
  await lockScoringExclusive(db);
  const profile = await db.selectFrom('profiles').select('id').where('id', '=', input.userId).executeTakeFirst();
  if (!profile) return null;
  const ps = await currentPeriodStart(db);
  const before = await db.selectFrom('scores').select(['creator_points', 'viewer_points']).where('user_id', '=', input.userId).executeTakeFirst();
  const r = await db
    .insertInto('reward_voids')
    .values({ period_start: ps, user_id: input.userId, created_at: changes.now, created_by: input.adminId })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  const created = Number(r.numInsertedOrUpdatedRows) > 0;
  const changed = created ? await onUserSuspended(db, input.userId, changes) : false;
  return {
    result: { user_id: input.userId, period_start: ps, created },
    changed,
    pointsBefore: { creator: Number(before?.creator_points ?? 0), viewer: Number(before?.viewer_points ?? 0) },
  };
}
