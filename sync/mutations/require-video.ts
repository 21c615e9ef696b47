import { MutationError } from '../protocol/error-codes';
import type { MutationTx, VideoRef } from './mutation-tx';

export async function requireVideo(tx: MutationTx, videoId: string): Promise<VideoRef> {
  const video = await tx.videos.get(videoId);
  if (!video) throw new MutationError('not_found', 'This video no longer exists.');
  return video;
}
