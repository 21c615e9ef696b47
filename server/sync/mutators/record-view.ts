import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema';
import type { VideoRef } from '../../../sync/mutations/mutators';
import { recordQualifyingView } from '../../rewards/view-rules';
import { logChange } from '../change-log';

/**
 * The sync side of recordView: the rule itself (what qualifies, one view per viewer and video,
 * anti-cheat, points) lives in rewards' recordQualifyingView; a view that does not count is
 * applied without effect, never rejected, so the outbox does not retry or toast it.
 * Returns whether this call counted a new view.
 */
export async function recordViewInTx(
  trx: Transaction<Database>,
  e: { video: VideoRef; userId: string; watchedMs: number; clientTime: number | undefined; now: number },
): Promise<boolean> {
  const result = await recordQualifyingView(trx, { viewerId: e.userId, videoId: e.video.id, watchedMs: e.watchedMs, clientTime: e.clientTime, now: e.now });
  if (!result.counted) return false;
  await logChange(trx, { entity: 'video', entityId: e.video.id, videoId: e.video.id }, e.now);
  return true;
}
