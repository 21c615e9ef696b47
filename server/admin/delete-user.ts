import { follows as followEntity, likes as likeEntity } from '#sync/entities/registry';
import { deleteNotificationsOfUser } from '../notifications/create';
import { sql, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { lockScoringExclusive } from '#db/locks';
import { onUserDeleted } from '../rewards/member-status';
import { deleteVideoInTx } from '../videos/delete-video';
import { removeCommentsOf } from './delete-user-comments';
import type { Changes } from '../changes/changes';
import { badRequest, forbidden, notFound } from '../http/errors';

/**
 * Admins are changed only from the command line (`npm run admin`): one admin's stolen session must
 * not be able to lock the others out or erase them.
 */
export const targetIsAdmin = (what: 'suspended' | 'deleted') =>
  forbidden(`Administrators cannot be ${what} here; use npm run admin on the server.`, 'target_is_admin');

export interface DeletedUser {
  email: string;
  /** Media keys to remove after commit (files are not transactional). */
  fileKeys: Array<string | null>;
  deletedVideoIds: string[];
  /** Other people's videos whose counters changed. */
  touchedVideoIds: string[];
  /** Whether the leaderboards changed (the rewards area logged it; poke 'leaderboard'). */
  scoresChanged: boolean;
}

/**
 * Removes a user and everything they made, inside the caller's transaction: their videos (with the
 * likes, comments and views on them), and their likes, comments, comment likes, views and shares on
 * other people's videos, with those videos' counters adjusted (their comments by deleteComment's
 * rules: delete-user-comments.ts). The leaderboards are settled first, in one
 * step, by the rewards area's onUserDeleted (after it, undoing the actions one by one with
 * applyScoreEvent would move no points, so it is not repeated per row). Sessions, credentials,
 * payments and the score row go by ON DELETE CASCADE.
 */
export async function deleteUserInTx(trx: Transaction<Database>, changes: Changes, actorId: string, userId: string): Promise<DeletedUser> {
  if (userId === actorId) throw badRequest('You cannot delete yourself.', 'cannot_target_self');
  // The member stops being eligible and many members' points move: no push runs beside it.
  await lockScoringExclusive(trx);
  const user = await trx.selectFrom('profiles').select(['id', 'email', 'is_admin']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound('No such user.', 'user_not_found');
  if (user.is_admin) throw targetIsAdmin('deleted');

  const scoresChanged = await onUserDeleted(trx, userId, changes);

  const fileKeys: Array<string | null> = [];
  const deletedVideoIds: string[] = [];
  const own = await trx.selectFrom('videos').select('id').where('user_id', '=', userId).execute();
  for (const v of own) {
    const gone = await deleteVideoInTx(trx, changes, v.id);
    if (gone) {
      fileKeys.push(...gone.fileKeys);
      deletedVideoIds.push(v.id);
    }
  }

  const touched = new Set<string>();

  const likes = await trx
    .selectFrom('likes')
    .innerJoin('videos', 'videos.id', 'likes.video_id')
    .select(['likes.video_id'])
    .where('likes.user_id', '=', userId)
    .execute();
  for (const l of likes) {
    await takeOne(trx, 'videos', 'likes_count', l.video_id);
    changes.row(likeEntity, { video_id: l.video_id, user_id: userId, created_at: 0 }, { deleted: true });
    touched.add(l.video_id);
  }
  await deleteNotificationsOfUser(trx, userId);
  await trx.deleteFrom('likes').where('user_id', '=', userId).execute();

  for (const videoId of await removeCommentsOf(trx, changes, userId)) touched.add(videoId);

  const views = await trx
    .selectFrom('views')
    .innerJoin('videos', 'videos.id', 'views.video_id')
    .select(['views.video_id'])
    .where('views.user_id', '=', userId)
    .execute();
  for (const v of views) {
    await takeOne(trx, 'videos', 'views_count', v.video_id);
    touched.add(v.video_id);
  }
  await trx.deleteFrom('views').where('user_id', '=', userId).execute();

  // shares_count counts members (docs/decisions/0001-prizes-that-cannot-be-farmed.md): one decrement per video they shared.
  const shares = await trx.selectFrom('shares').select(['video_id']).distinct().where('user_id', '=', userId).execute();
  for (const s of shares) {
    await takeOne(trx, 'videos', 'shares_count', s.video_id);
    touched.add(s.video_id);
  }
  await trx.deleteFrom('shares').where('user_id', '=', userId).execute();

  for (const videoId of touched) changes.video(videoId);
  await removeFollows(trx, changes, userId);

  await trx.deleteFrom('profiles').where('id', '=', userId).execute();
  changes.profile(userId, { deleted: true });

  return { email: user.email, fileKeys, deletedVideoIds, touchedVideoIds: [...touched], scoresChanged };
}

/**
 * The member's follows, both ways, with the other side's counter taken down: the rows would go by
 * ON DELETE CASCADE, but the counts of the people they followed (and who followed them) would stay.
 * The followers' devices drop the follow (an own row gone); the followed see their count.
 */
async function removeFollows(trx: Transaction<Database>, changes: Changes, userId: string): Promise<void> {
  const following = await trx.selectFrom('follows').select(['followee_id', 'created_at']).where('follower_id', '=', userId).execute();
  for (const f of following) {
    await takeOne(trx, 'profiles', 'followers_count', f.followee_id);
    changes.profile(f.followee_id);
  }
  const followers = await trx.selectFrom('follows').select(['follower_id', 'created_at']).where('followee_id', '=', userId).execute();
  for (const f of followers) {
    await takeOne(trx, 'profiles', 'following_count', f.follower_id);
    changes.profile(f.follower_id).row(followEntity, { follower_id: f.follower_id, followee_id: userId, created_at: 0 }, { deleted: true });
  }
  await trx
    .deleteFrom('follows')
    .where((eb) => eb.or([eb('follower_id', '=', userId), eb('followee_id', '=', userId)]))
    .execute();
}

/** The counters a deleted member's rows counted in, by table. */
type Counters = { videos: 'likes_count' | 'views_count' | 'shares_count'; profiles: 'followers_count' | 'following_count' };

/** One off a counter the deleted member's row counted in (a like on a video, a follow of a member). */
async function takeOne<T extends keyof Counters>(trx: Transaction<Database>, table: T, counter: Counters[T], id: string): Promise<void> {
  await sql`update ${sql.table(table)} set ${sql.ref(counter)} = ${sql.ref(counter)} - 1 where id = ${id}`.execute(trx);
}
