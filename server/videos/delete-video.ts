import { deleteNotificationsOfVideo } from '../notifications/create';
import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { Changes } from '../changes/changes';
import { applyScoreEvent } from '../rewards/score-events';
import { onVideoDeleted } from '../rewards/member-status';
import { endJobsOfVideo } from '../media/jobs/queue';
import { videoMediaDeleted } from '../media/jobs/registry';
import { unfileVideo } from '../discovery/video-hashtags';

/**
 * Deletes a video and everything that hangs off it inside the caller's transaction: its likes,
 * comments and views stop counting for the leaderboards, and pulls see the deletion. Returns the
 * media keys to remove once the transaction has committed (files are not transactional), or null
 * when the video does not exist. Its processing jobs end here; after the commit a running ffmpeg
 * of it in this process is stopped and its `{userId}/{videoId}/` media folder (renditions,
 * temp folders) removed. A worker in another process or on another machine stops by itself: its
 * next heartbeat finds the job ended (server/media/jobs/registry.ts, videoMediaDeleted).
 */
export async function deleteVideoInTx(
  trx: Transaction<Database>,
  changes: Changes,
  videoId: string,
): Promise<{ ownerId: string; fileKeys: Array<string | null> } | null> {
  const video = await trx.selectFrom('videos').select(['id', 'user_id', 'file_key', 'poster_key']).where('id', '=', videoId).executeTakeFirst();
  if (!video) return null;
  const now = changes.now;
  // Takes the video's likes, comments and views off the leaderboards at once and deletes them, so the loops below find none.
  await onVideoDeleted(trx, videoId, changes);

  const likes = await trx.selectFrom('likes').select(['user_id', 'created_at']).where('video_id', '=', videoId).execute();
  for (const l of likes) {
    await applyScoreEvent(trx, { kind: 'like', actorId: l.user_id, creatorId: video.user_id, delta: -1, occurredAt: l.created_at, at: now });
  }
  const comments = await trx.selectFrom('comments').select(['id', 'user_id', 'created_at']).where('video_id', '=', videoId).execute();
  for (const c of comments) {
    await applyScoreEvent(trx, { kind: 'comment', actorId: c.user_id, creatorId: video.user_id, delta: -1, occurredAt: c.created_at, at: now });
  }
  const views = await trx.selectFrom('views').select(['user_id', 'created_at']).where('video_id', '=', videoId).execute();
  for (const v of views) {
    await applyScoreEvent(trx, { kind: 'view', actorId: v.user_id, creatorId: video.user_id, delta: -1, occurredAt: v.created_at, at: now });
  }

  await deleteNotificationsOfVideo(trx, changes, videoId);
  // Its tags' counts go down by the rows it had (the rows themselves would go with the cascade).
  await unfileVideo(trx, videoId);
  // Likes, comments, views and shares go with the video (ON DELETE CASCADE).
  await trx.deleteFrom('videos').where('id', '=', videoId).execute();
  await endJobsOfVideo(trx, videoId, now);
  changes.videoListed(videoId, { deleted: true });
  changes.afterCommit(() => videoMediaDeleted(video.user_id, videoId));
  if (likes.length || comments.length || views.length) changes.leaderboard();
  return { ownerId: video.user_id, fileKeys: [video.file_key, video.poster_key] };
}
