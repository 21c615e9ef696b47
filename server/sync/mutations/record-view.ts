import type { VideoRef } from '#sync/mutations/mutation-tx';
import { recordQualifyingView } from '#server/rewards/view-rules';
import type { ServerMutationContext } from './context';

/**
 * The server side of recordView: the rule itself (what qualifies, one view per viewer and video,
 * anti-cheat, points) lives in rewards' recordQualifyingView (the batch memo makes the views of one
 * push share one watch-time window); a view that does not count is applied without effect, never
 * rejected, so the outbox does not retry or toast it.
 */
export async function recordViewInTx(ctx: ServerMutationContext, video: VideoRef, watchedMs: number): Promise<void> {
  const result = await recordQualifyingView(ctx.trx, {
    viewerId: ctx.user.id,
    videoId: video.id,
    watchedMs,
    clientTime: ctx.clientTime,
    now: ctx.now,
    memo: ctx.batch.scores,
  });
  if (result.counted) ctx.changes.video(video.id);
}
