import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { logChange } from '../sync/change-log';
import { applyScoreEvent } from '../rewards/score-events';
import { deleteVideoInTx } from '../videos/delete-video';
import { badRequest, notFound } from '../http/errors';

export interface DeletedUser {
  email: string;
  /** Media keys to remove after commit (files are not transactional). */
  fileKeys: Array<string | null>;
  deletedVideoIds: string[];
  /** Other people's videos whose counters changed. */
  touchedVideoIds: string[];
}

/**
 * Removes a user and everything they made, inside the caller's transaction: their videos (with the
 * likes, comments and views on them), and their likes, comments, views and shares on other
 * people's videos, with those videos' counters and the leaderboards adjusted exactly as if each
 * had been undone one by one. Sessions, credentials, payments and scores go by ON DELETE CASCADE.
 */
export async function deleteUserInTx(trx: Transaction<Database>, actorId: string, userId: string, now: number): Promise<DeletedUser> {
  if (userId === actorId) throw badRequest('You cannot delete yourself.', 'cannot_target_self');
  const user = await trx.selectFrom('profiles').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound('No such user.', 'user_not_found');

  const fileKeys: Array<string | null> = [];
  const deletedVideoIds: string[] = [];
  const own = await trx.selectFrom('videos').select('id').where('user_id', '=', userId).execute();
  for (const v of own) {
    const gone = await deleteVideoInTx(trx, v.id, now);
    if (gone) {
      fileKeys.push(...gone.fileKeys);
      deletedVideoIds.push(v.id);
    }
  }

  const touched = new Set<string>();
  let scoresChanged = false;

  const likes = await trx
    .selectFrom('likes')
    .innerJoin('videos', 'videos.id', 'likes.video_id')
    .select(['likes.video_id', 'likes.created_at', 'videos.user_id as creator_id'])
    .where('likes.user_id', '=', userId)
    .execute();
  for (const l of likes) {
    await trx.updateTable('videos').set((eb) => ({ likes_count: eb('likes_count', '-', 1) })).where('id', '=', l.video_id).execute();
    await applyScoreEvent(trx, { kind: 'like', actorId: userId, creatorId: l.creator_id, delta: -1, occurredAt: Number(l.created_at), at: now });
    await logChange(trx, { entity: 'like', entityId: l.video_id, videoId: l.video_id, userId, deleted: true }, now);
    touched.add(l.video_id);
    scoresChanged = true;
  }
  await trx.deleteFrom('likes').where('user_id', '=', userId).execute();

  const comments = await trx
    .selectFrom('comments')
    .innerJoin('videos', 'videos.id', 'comments.video_id')
    .select(['comments.id', 'comments.video_id', 'comments.created_at', 'videos.user_id as creator_id'])
    .where('comments.user_id', '=', userId)
    .execute();
  for (const cm of comments) {
    await trx.updateTable('videos').set((eb) => ({ comments_count: eb('comments_count', '-', 1) })).where('id', '=', cm.video_id).execute();
    await applyScoreEvent(trx, { kind: 'comment', actorId: userId, creatorId: cm.creator_id, delta: -1, occurredAt: Number(cm.created_at), at: now });
    await logChange(trx, { entity: 'comment', entityId: cm.id, videoId: cm.video_id, deleted: true }, now);
    touched.add(cm.video_id);
    scoresChanged = true;
  }
  await trx.deleteFrom('comments').where('user_id', '=', userId).execute();

  const views = await trx
    .selectFrom('views')
    .innerJoin('videos', 'videos.id', 'views.video_id')
    .select(['views.video_id', 'views.created_at', 'videos.user_id as creator_id'])
    .where('views.user_id', '=', userId)
    .execute();
  for (const v of views) {
    await trx.updateTable('videos').set((eb) => ({ views_count: eb('views_count', '-', 1) })).where('id', '=', v.video_id).execute();
    await applyScoreEvent(trx, { kind: 'view', actorId: userId, creatorId: v.creator_id, delta: -1, occurredAt: Number(v.created_at), at: now });
    touched.add(v.video_id);
    scoresChanged = true;
  }
  await trx.deleteFrom('views').where('user_id', '=', userId).execute();

  const shares = await trx.selectFrom('shares').select(['video_id']).where('user_id', '=', userId).execute();
  for (const s of shares) {
    await trx.updateTable('videos').set((eb) => ({ shares_count: eb('shares_count', '-', 1) })).where('id', '=', s.video_id).execute();
    touched.add(s.video_id);
  }
  await trx.deleteFrom('shares').where('user_id', '=', userId).execute();

  for (const videoId of touched) await logChange(trx, { entity: 'video', entityId: videoId }, now);

  // The user's own score row disappears with the profile, which may change both leaderboards.
  const score = await trx.selectFrom('scores').select(['creator_points', 'viewer_points']).where('user_id', '=', userId).executeTakeFirst();
  if (score && (score.creator_points !== 0 || score.viewer_points !== 0)) scoresChanged = true;

  await trx.deleteFrom('profiles').where('id', '=', userId).execute();
  await logChange(trx, { entity: 'profile', entityId: userId, userId, deleted: true }, now);
  if (scoresChanged) await logChange(trx, { entity: 'leaderboard', entityId: 'all' }, now);

  return { email: user.email, fileKeys, deletedVideoIds, touchedVideoIds: [...touched] };
}
