import { createHash } from 'node:crypto';
import type { AppDeps } from '../context';
import { posterKeysOf } from '../media/storage';

/**
 * A video keeps at most this many poster files (the current one and the ones it replaced, kept so
 * pages that loaded them keep working). The app sends one poster per video, so this only bounds
 * what a script could pile up.
 */
export const MAX_POSTERS_PER_VIDEO = 5;

/** Content-addressed: identical bytes get the same key, so a retried PUT is a no-op. */
export function posterKey(userId: string, videoId: string, bytes: Uint8Array, extension: string): string {
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return `${userId}/poster-${videoId}-${digest}.${extension}`;
}

/**
 * Called when an upload row lets go of its poster (cancelled, expired, refused long ago). A key
 * still named by an upload or a video stays. Once no row of the video names any poster and the
 * video does not exist, all of its poster objects go (earlier ones included); while the video exists
 * its deletion removes them.
 */
export async function releasePoster(deps: AppDeps, key: string | null, owner?: { userId: string; videoId: string }): Promise<void> {
  if (!key) return;
  const { db } = deps;
  const inUpload = await db.selectFrom('uploads').select('id').where('poster_key', '=', key).executeTakeFirst();
  const inVideo = await db.selectFrom('videos').select('id').where('poster_key', '=', key).executeTakeFirst();
  if (inUpload || inVideo) return;
  await deps.media.delete([key]);
  if (!owner) return;
  const video = await db.selectFrom('videos').select('id').where('id', '=', owner.videoId).executeTakeFirst();
  const named = await db.selectFrom('uploads').select('id').where('video_id', '=', owner.videoId).where('poster_key', 'is not', null).executeTakeFirst();
  if (!video && !named) await deps.media.delete(await posterKeysOf(deps.media, owner.userId, owner.videoId));
}
