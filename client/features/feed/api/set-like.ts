import type { SyncEngine } from '#client/sync/sync-engine';

/**
 * Likes or unlikes a video. Idempotent: liking a liked video queues a mutation that changes nothing
 * (on the device and on the server), so a double tap that the screen had not yet redrawn between
 * cannot flip the like back.
 */
export async function setLike(engine: Pick<SyncEngine, 'mutate'>, { videoId, liked }: { videoId: string; liked: boolean }): Promise<void> {
  await engine.mutate(liked ? 'like' : 'unlike', { videoId });
}
