import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { VideoRef } from '#sync/mutations/parse-mutation';
import type { ScoreMemo } from '#server/rewards/score-events';
import { recordQualifyingView } from '#server/rewards/view-rules';
import { logChange } from '#server/changes/change-log';

/**
 * The sync side of recordView: the rule itself (what qualifies, one view per viewer and video,
 * anti-cheat, points) lives in rewards' recordQualifyingView (the batch memo makes the views of one push
 * share one watch-time window); a view that does not count is
 * applied without effect, never rejected, so the outbox does not retry or toast it.
 * Returns whether this call counted a new view.
 */
export async function recordViewInTx(
  trx: Transaction<Database>,
  e: { video: VideoRef; userId: string; watchedMs: number; clientTime: number | undefined; now: number; memo: ScoreMemo },
): Promise<boolean> {
  const result = await recordQualifyingView(trx, {
    viewerId: e.userId,
    videoId: e.video.id,
    watchedMs: e.watchedMs,
    clientTime: e.clientTime,
    now: e.now,
    memo: e.memo,
  });
  if (!result.counted) return false;
  await logChange(trx, { entity: 'video', entityId: e.video.id, videoId: e.video.id }, e.now);
  return true;
}
