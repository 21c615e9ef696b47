import { describe, expect, it } from 'vitest';
import { until, useMediaJobsWorld } from '../helpers/media-jobs';
import { enqueueMediaJob } from '#server/media/jobs/queue';
import { MediaProcessingError } from '#server/media/processing/errors';
import { processVideo } from '#server/media/processing/process-video';

// The owner hears once that a new upload is ready or could not be processed: through the real
// runner, real ffmpeg and the job queue. A re-processing of a ready video (a backfill) says nothing.

describe('processing notifications', () => {
  const w = useMediaJobsWorld();
  const notificationsOf = (videoId: string) =>
    w.t.deps.db.selectFrom('notifications').select(['kind', 'user_id', 'detail', 'count']).where('video_id', '=', videoId).execute();

  it('tells the owner once that the video is ready, and nothing when it is processed again', async () => {
    const { videoId } = await w.addVideo(w.clip);
    const title = (await w.video(videoId))!.title;
    w.startRunner({ processVideo });
    await until('ready', async () => ((await w.video(videoId))?.media_status === 'ready' ? true : null));
    expect(await notificationsOf(videoId)).toEqual([{ kind: 'processed', user_id: w.alice.id, detail: title, count: 1 }]);

    // A backfill re-runs the pipeline on the ready video: still one notification.
    const again = await enqueueMediaJob(w.t.deps.db, videoId, w.t.deps.now());
    await until('re-processed', async () => ((await w.job(again)).state === 'done' ? true : null));
    expect(await notificationsOf(videoId)).toEqual([{ kind: 'processed', user_id: w.alice.id, detail: title, count: 1 }]);
  }, 60_000);

  it('tells the owner once, with the reason, when processing fails for good after its retries', async () => {
    const { videoId, jobId } = await w.addVideo(w.clip);
    const broken = () => Promise.reject(new MediaProcessingError('the file has no video track', false));
    w.startRunner({ processVideo: broken, retry: { maxAttempts: 2, backoffMs: [0] } });
    await until('failed', async () => ((await w.job(jobId)).state === 'failed' ? true : null));
    expect((await w.video(videoId))?.media_status).toBe('failed');
    expect(await notificationsOf(videoId)).toEqual([{ kind: 'processing_failed', user_id: w.alice.id, detail: 'the file has no video track', count: 1 }]);
  }, 60_000);
});
