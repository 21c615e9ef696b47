import { MutationError } from '../protocol/error-codes';
import type { MutationTx, VideoRef } from './mutation-tx';

export async function requireVideo(tx: MutationTx, videoId: string): Promise<VideoRef> {
  const video = await tx.videos.get({ id: videoId });
  if (!video) throw new MutationError('not_found', 'This video no longer exists.');
  return video;
}

/**
 * A video the acting member may like, comment on, share or watch: one the feed shows them, that is
 * a ready one or their own (server/videos/feed-rows.ts). Another member's video still processing, or
 * failed, is seen by nobody else, so nothing done to it may count (docs/sync.md, "Error classes").
 */
export async function requireShownVideo(tx: MutationTx, videoId: string): Promise<VideoRef> {
  const video = await requireVideo(tx, videoId);
  if (video.media_status === undefined || video.media_status === 'ready' || video.user_id === tx.userId) return video;
  throw new MutationError(
    'not_ready',
    video.media_status === 'processing' ? 'This video is still being processed.' : 'This video could not be processed and cannot be watched.',
  );
}
