import { writeTx } from '../../changes/write-tx';
import type { RunnerDeps } from './types';

/** Write when progress moved at least this many points and at least MIN_INTERVAL_MS passed: at most 20 writes, at most one a second. */
const MIN_STEP = 5;
const MIN_INTERVAL_MS = 1000;

/**
 * The uploader's progress bar: media_progress written at most every 5 % and 1 s (each write is a
 * transaction, a change-log row and a poke), reaching only the owner's devices. Writes are chained,
 * so they land in order and settle() waits for the last before the job's own write.
 */
export function progressWriter(deps: RunnerDeps, video: { id: string; user_id: string }, enabled: boolean) {
  let written = 0;
  let writtenAt = 0;
  let chain: Promise<void> = Promise.resolve();
  const report = (pct: number): void => {
    // 100 is the job's own write, together with the outputs.
    const value = Math.max(0, Math.min(99, Math.floor(pct)));
    const at = Date.now();
    if (!enabled || value <= written) return;
    // Both bounds: each write is a change-log row every member's next pull reads past.
    if (value - written < MIN_STEP || at - writtenAt < MIN_INTERVAL_MS) return;
    written = value;
    writtenAt = at;
    chain = chain
      .then(() =>
        writeTx(deps, async (trx, changes) => {
          const res = await trx
            .updateTable('videos')
            .set({ media_progress: value })
            .where('id', '=', video.id)
            .where('media_status', '=', 'processing')
            .executeTakeFirst();
          if (Number(res.numUpdatedRows)) changes.videoOwnerOnly(video.id, video.user_id);
        }),
      )
      .catch((err: unknown) => deps.log.error('media progress write failed', err));
  };
  return { report, settle: () => chain };
}
