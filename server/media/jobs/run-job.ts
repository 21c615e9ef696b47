import { writeTx } from '../../changes/write-tx';
import { notifyProcessing } from '../../notifications/create';
import { notifyVideoMentions } from '../../notifications/mentions';
import { MediaProcessingError } from '../processing/errors';
import { completeJob, failJob, releaseJob, renewLease, type ClaimedJob } from './queue';
import { videoFolderKey } from './registry';
import { sweepVideoFolder, tempFolderName } from './sweep';
import { progressWriter } from './progress';
import type { ProcessedVideo, RunnerDeps, RunnerOptions, StopReason } from './types';
import { fileVideo } from '../../discovery/video-hashtags';

interface JobVideo {
  id: string;
  user_id: string;
  file_key: string;
  poster_key: string | null;
  media_status: string;
}

/** Shown to the uploader when the pipeline failed in a way it did not explain. */
const UNEXPECTED = 'processing failed unexpectedly';
const INTERRUPTED = 'processing was interrupted too many times';

/**
 * One try of one claimed job: process into an empty scratch folder, publish it whole (on disk one
 * rename, on S3 every file uploaded before publishScratch resolves), then point the video at it in
 * one transaction. Only a complete, published folder is ever named by media_key, so a crash at any
 * point leaves at most folders the sweep removes (sweep.ts: the store's, and this machine's scratch).
 */
export async function runJob(deps: RunnerDeps, o: RunnerOptions, job: ClaimedJob, signal: AbortSignal): Promise<void> {
  const video = await readVideo(deps, job);
  if (!video) {
    // Deleted before its turn: nothing to make, nothing left behind.
    await completeJob(deps.db, job.id, o.workerId, deps.now());
    return;
  }
  // Claimed again after its worker died on every try (an expired lease counts a try): a file that
  // kills the worker (memory, a crash in ffmpeg) must not be retried forever.
  if (job.attempt > o.retry.maxAttempts) return recordFailure(deps, o, job, video, new MediaProcessingError(INTERRUPTED, false));
  await processAndInstall(deps, o, job, video, signal);
}

function readVideo(deps: RunnerDeps, job: ClaimedJob): Promise<JobVideo | undefined> {
  return deps.db.selectFrom('videos').select(['id', 'user_id', 'file_key', 'poster_key', 'media_status']).where('id', '=', job.videoId).executeTakeFirst();
}

async function processAndInstall(deps: RunnerDeps, o: RunnerOptions, job: ClaimedJob, video: JobVideo, signal: AbortSignal): Promise<void> {
  const store = deps.media;
  const folder = videoFolderKey(video.user_id, video.id);
  const tempKey = `${folder}/${tempFolderName(job.id, job.attempt)}`;
  await sweepVideoFolder(deps.db, store, video.user_id, video.id, deps.now());
  // Earlier tries of this job whose worker died on this machine: on S3 their scratch is local, out of the sweep's sight.
  for (let a = 1; a < job.attempt; a++) await store.discardScratch(`${folder}/${tempFolderName(job.id, a)}`);
  const outDir = await store.scratchFolder(tempKey);
  // Progress only means something to the uploader of a video that is not shown yet.
  const progress = progressWriter(deps, video, video.media_status !== 'ready');
  let result: ProcessedVideo;
  try {
    // On S3 the source is downloaded for ffmpeg and the copy removed when it is done.
    result = await store.withLocalFile(video.file_key, (source) =>
      o.processVideo({
        binaries: o.binaries,
        source,
        outDir,
        threads: o.threads,
        ...(o.preset ? { preset: o.preset } : {}),
        nice: o.nice,
        makePoster: video.poster_key == null,
        signal,
        onProgress: progress.report,
      }),
    );
  } catch (err) {
    await progress.settle();
    await store.discardScratch(tempKey);
    if (signal.aborted) return afterStop(deps, o, job, video, signal.reason as StopReason);
    // Deleted on another instance before this worker's heartbeat noticed (its source is gone too).
    if (!(await videoExists(deps, video.id))) return afterStop(deps, o, job, video, 'deleted');
    return recordFailure(deps, o, job, video, err);
  }
  await progress.settle();
  await install(deps, o, job, video, tempKey, result);
}

const videoExists = async (deps: RunnerDeps, id: string) => !!(await deps.db.selectFrom('videos').select('id').where('id', '=', id).executeTakeFirst());

/** Publishes the finished scratch folder and points the video at it, with the duration its frames really have. */
async function install(deps: RunnerDeps, o: RunnerOptions, job: ClaimedJob, video: JobVideo, tempKey: string, made: ProcessedVideo): Promise<void> {
  const store = deps.media;
  const mediaKey = `${videoFolderKey(video.user_id, video.id)}/${job.id}`;
  // The fence before the publish: a worker whose job was taken over (or whose video was deleted, on
  // this instance or any other: the deletion ended the job) stops here.
  if (!(await renewLease(deps.db, job.id, o.workerId, deps.now(), o.leaseMs))) {
    await store.discardScratch(tempKey);
    return afterStop(deps, o, job, video, 'lost');
  }
  // Replaces a folder of this job already there: an earlier try's, published just before a crash,
  // never referenced. The heartbeat keeps the lease through a long S3 publish; only a worker frozen
  // (or cut from the database) longer than the lease while publishing could overlap its successor's
  // publish of the same key.
  await store.publishScratch(tempKey, mediaKey);
  await writeTx(deps, async (trx, changes) => {
    const now = changes.now;
    const current = await trx
      .selectFrom('videos')
      .select(['media_status', 'media_key', 'poster_key', 'title', 'description'])
      .where('id', '=', video.id)
      .executeTakeFirst();
    const ours = await completeJob(trx, job.id, o.workerId, now);
    if (!current) {
      // Deleted meanwhile (past the fence): its folder goes whole, this publish with it.
      changes.afterCommit(() => store.deleteFolder(videoFolderKey(video.user_id, video.id)));
      return;
    }
    // Taken over by another worker (this one stalled past its lease): the folder is left to that
    // worker, which replaces it before its own publish, or to the sweep.
    if (!ours) return;
    await trx
      .updateTable('videos')
      .set({
        media_status: 'ready',
        media_progress: 100,
        media_error: null,
        media_key: mediaKey,
        // The header's claim was stored at upload; the view rule must count what plays.
        duration_ms: made.durationMs,
        poster_key: current.poster_key ?? (made.poster ? `${mediaKey}/poster.jpg` : null),
      })
      .where('id', '=', video.id)
      .execute();
    // Ready: filed under its hashtags (a re-processing finds them filed and changes nothing).
    await fileVideo(trx, video.id, now);
    // Not ready before: it now enters everyone's feed. Ready before (re-processing): its card changes.
    // Only the first processing of an upload tells its owner (a re-processing of a ready video is silent).
    if (current.media_status === 'ready') changes.video(video.id);
    else {
      changes.videoListed(video.id);
      await notifyProcessing(trx, changes, { videoId: video.id, ownerId: video.user_id, kind: 'processed', detail: current.title });
      // Now others see it: the members its title or description mentions are told (docs/notifications.md).
      await notifyVideoMentions(trx, changes, { videoId: video.id, ownerId: video.user_id, title: current.title, description: current.description });
    }
    const previous = current.media_key;
    if (previous && previous !== mediaKey) changes.afterCommit(() => store.deleteFolder(previous));
  });
}

/** A try stopped from outside: give the job back on shutdown; after a deletion clear the video's folder. */
async function afterStop(deps: RunnerDeps, o: RunnerOptions, job: ClaimedJob, video: JobVideo, reason: StopReason): Promise<void> {
  if (reason === 'shutdown') return releaseJob(deps.db, job.id, o.workerId, deps.now());
  if (!(await videoExists(deps, video.id))) await deps.media.deleteFolder(videoFolderKey(video.user_id, video.id));
}

/**
 * Whether trying again can help. The file is at fault when the pipeline says so (MediaProcessingError
 * permanent: not a video, too long, too large, undecodable): the same bytes fail the same way, so one
 * try is all it gets. Timeouts, a full disk, a killed ffmpeg, storage and database errors may pass.
 */
export const isPermanent = (err: unknown) => err instanceof MediaProcessingError && err.permanent;

/**
 * A failed try: retried after the backoff unless the file is at fault, or, after the last try, the
 * job is 'failed' and a video that was waiting for it is marked failed with the pipeline's sentence.
 * A video that was already ready (re-processing) keeps playing its original and is left alone.
 */
async function recordFailure(deps: RunnerDeps, o: RunnerOptions, job: ClaimedJob, video: JobVideo, err: unknown): Promise<void> {
  const reason = err instanceof MediaProcessingError ? err.reason : UNEXPECTED;
  const detail = err instanceof Error ? err.message : String(err);
  const policy = isPermanent(err) ? { ...o.retry, maxAttempts: job.attempt } : o.retry;
  deps.log.error(`media job ${job.id} (video ${video.id}) try ${job.attempt} failed${isPermanent(err) ? ' for good' : ''}: ${detail}`);
  await writeTx(deps, async (trx, changes) => {
    const outcome = await failJob(trx, job, o.workerId, detail, changes.now, policy);
    if (outcome.kind !== 'failed') return;
    const res = await trx
      .updateTable('videos')
      .set({ media_status: 'failed', media_error: reason, media_progress: 0 })
      .where('id', '=', video.id)
      .where('media_status', '!=', 'ready')
      .executeTakeFirst();
    if (!Number(res.numUpdatedRows)) return;
    changes.videoOwnerOnly(video.id, video.user_id);
    await notifyProcessing(trx, changes, { videoId: video.id, ownerId: video.user_id, kind: 'processing_failed', detail: reason });
  });
}
