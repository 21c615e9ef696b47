import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { ffmpegPidsNaming, makeLongClip, until, useMediaJobsWorld } from '../helpers/media-jobs';
import { writeTx } from '#server/changes/write-tx';
import type { ProcessVideoFn } from '#server/media/jobs/types';
import { processVideo } from '#server/media/processing/process-video';
import { deleteVideoInTx } from '#server/videos/delete-video';
import { endJobsOfVideo } from '#server/media/jobs/queue';
import { loadConfig } from '#server/config';

describe('media jobs: the runner over real SQLite, real ffmpeg and real files', () => {
  const w = useMediaJobsWorld();
  const { media, startRunner, addVideo, video, job, videoFolder } = w;
  let longClip: string;

  beforeAll(async () => {
    // Long enough (12 s, 360x640) that ffmpeg is surely still running when the test acts on it.
    // Long enough to still be encoding when a test deletes it, on a quiet machine too.
    longClip = await makeLongClip(join(w.t.dataDir, 'long.mp4'), 60);
  }, 60_000);

  it('processes a queued job: the video becomes ready with its outputs in place, the temp folder gone, progress only to the owner', async () => {
    const pokes: string[][] = [];
    const off = w.t.deps.pokes.subscribe((scopes) => pokes.push(scopes));
    const started = Date.now();
    const { videoId, jobId } = await addVideo(w.clip);
    // MEDIA_X264_PRESET reaches ffmpeg through the runner.
    const presets: Array<string | undefined> = [];
    startRunner({ preset: 'ultrafast', processVideo: (input) => (presets.push(input.preset), processVideo(input)) });
    const v = await until('ready', async () => ((await video(videoId))?.media_status === 'ready' ? video(videoId) : null));
    off();
    console.log(`queued -> ready in ${Date.now() - started} ms`);
    expect(v).toMatchObject({ media_progress: 100, media_error: null, media_key: `${w.alice.id}/${videoId}/${jobId}` });
    expect(v!.poster_key).toBe(`${v!.media_key}/poster.jpg`);
    for (const f of ['master.m3u8', 'small.mp4', 'poster.jpg']) expect(existsSync(media(`${v!.media_key}/${f}`)), f).toBe(true);
    expect(readFileSync(media(`${v!.media_key}/master.m3u8`), 'utf8')).toContain('#EXTM3U');
    expect(readdirSync(videoFolder(videoId))).toEqual([jobId]);
    expect(await job(jobId)).toMatchObject({ state: 'done', attempts: 1 });
    expect(presets).toEqual(['ultrafast']);
    // Progress went to the owner's devices only; the finish put the video in every feed.
    const progress = pokes.slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) expect(p).toEqual([`user:${w.alice.id}`]);
    // ... and told its owner it is ready (the notification pokes only the owner's devices).
    expect(pokes.at(-1)).toEqual(['feed', `video:${videoId}`, `user:${w.alice.id}`]);
  }, 60_000);

  it('progress reaches the owner by pull (and by a poke of user:{owner} only); others are never sent the processing video', async () => {
    const bob = await createUser(w.t.deps, { name: 'Bob' });
    const pull = (u: TestUser, cursor: string | null) => call(w.t.app, 'POST', '/api/sync/pull', { cursor }, u.token);
    const start = (await pull(w.alice, null)).json.cursor as string;
    const { videoId } = await addVideo(longClip);
    const pokes: string[][] = [];
    const off = w.t.deps.pokes.subscribe((scopes) => pokes.push(scopes));
    startRunner();
    await until('progress', async () => ((await video(videoId))?.media_progress ?? 0) > 0);
    off();
    const mine = await pull(w.alice, start);
    expect(mine.status).toBe(200);
    const item = mine.json.videos.find((v: { id: string }) => v.id === videoId);
    expect(item).toMatchObject({ media_status: 'processing', hls_url: null });
    expect(item.media_progress).toBeGreaterThan(0);
    const theirs = await pull(bob, start);
    expect(theirs.json.videos.map((v: { id: string }) => v.id)).not.toContain(videoId);
    expect(pokes.length).toBeGreaterThan(0);
    for (const p of pokes) expect(p).toEqual([`user:${w.alice.id}`]);
    await writeTx(w.t.deps, (trx, changes) => deleteVideoInTx(trx, changes, videoId));
  }, 60_000);

  it('deleting a video mid-processing kills its ffmpeg and leaves no files', async () => {
    const { videoId, jobId } = await addVideo(longClip);
    let progressed = false;
    const watched: ProcessVideoFn = (input) => processVideo({ ...input, onProgress: (p) => ((progressed = p > 0), input.onProgress?.(p)) });
    startRunner({ processVideo: watched });
    await until('ffmpeg encoding', () => progressed);
    const source = (await video(videoId))!.file_key;
    // Progress is reported as the encoder starts: its process may be a moment behind.
    await until('ffmpeg running on the source', () => ffmpegPidsNaming(source).length > 0);
    const started = Date.now();
    await writeTx(w.t.deps, async (trx, changes) => {
      await deleteVideoInTx(trx, changes, videoId);
    });
    console.log(`delete -> ffmpeg gone and folder removed in ${Date.now() - started} ms`);
    expect(ffmpegPidsNaming(source)).toEqual([]);
    expect(existsSync(videoFolder(videoId))).toBe(false);
    expect(await job(jobId)).toMatchObject({ state: 'done' });
    // The runner is free again and nothing reappears.
    await new Promise((ok) => setTimeout(ok, 300));
    expect(existsSync(videoFolder(videoId))).toBe(false);
  }, 60_000);

  it('a deletion on another instance (no abort reaches this runner) stops ffmpeg within a heartbeat; nothing is published, the folder goes', async () => {
    const { videoId, jobId } = await addVideo(longClip);
    let progressed = false;
    const watched: ProcessVideoFn = (input) => processVideo({ ...input, onProgress: (p) => ((progressed = p > 0), input.onProgress?.(p)) });
    // 3 s lease: a heartbeat every second.
    startRunner({ processVideo: watched, leaseMs: 3000 });
    await until('ffmpeg encoding', () => progressed);
    const source = (await video(videoId))!.file_key;
    // What deleteVideoInTx writes, without this process's registry: the other instance's deletion.
    await w.t.deps.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('videos').where('id', '=', videoId).execute();
      await endJobsOfVideo(trx, videoId, w.t.deps.now());
    });
    const deletedAt = Date.now();
    await until('ffmpeg stopped by the failed heartbeat', () => ffmpegPidsNaming(source).length === 0, 5000);
    const stoppedIn = Date.now() - deletedAt;
    await until('the video folder removed by the runner', () => !existsSync(videoFolder(videoId)), 5000);
    console.log(`remote delete -> ffmpeg gone in ${stoppedIn} ms`);
    expect(stoppedIn).toBeLessThan(2500);
    expect(await job(jobId)).toMatchObject({ state: 'done', attempts: 1 });
    await new Promise((ok) => setTimeout(ok, 300));
    expect(existsSync(videoFolder(videoId))).toBe(false);
  }, 60_000);
});

describe('media runner configuration', () => {
  it('has defaults and refuses values out of range, naming the variable', () => {
    expect(loadConfig({}).media).toEqual({
      worker: true,
      concurrency: 1,
      ffmpegThreads: 2,
      x264Preset: 'veryfast',
      nice: 19,
      leaseMs: 60_000,
      ffmpegPath: undefined,
      ffprobePath: undefined,
    });
    expect(loadConfig({ MEDIA_WORKER: 'off', MEDIA_CONCURRENCY: '8', MEDIA_NICE: '0', MEDIA_X264_PRESET: 'ultrafast' }).media).toMatchObject({
      worker: false,
      concurrency: 8,
      nice: 0,
      x264Preset: 'ultrafast',
    });
    for (const [name, value] of [
      ['MEDIA_WORKER', 'yes'],
      ['MEDIA_CONCURRENCY', '0'],
      ['MEDIA_CONCURRENCY', '9'],
      ['MEDIA_FFMPEG_THREADS', '17'],
      ['MEDIA_NICE', '20'],
      ['MEDIA_X264_PRESET', 'placebo'],
    ]) {
      expect(() => loadConfig({ [name!]: value }), `${name}=${value}`).toThrow(name);
    }
  });
});
