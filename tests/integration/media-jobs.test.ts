import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { mp4Faststart } from '../fixtures/videos';
import { writeTx } from '#server/changes/write-tx';
import { enqueueMediaJob } from '#server/media/jobs/queue';
import { createMediaRunner, type MediaRunner } from '#server/media/jobs/runner';
import type { ProcessVideoFn, RunnerOptions } from '#server/media/jobs/types';
import { findFfmpeg } from '#server/media/processing/ffmpeg-binaries';
import { processVideo } from '#server/media/processing/process-video';
import { deleteVideoInTx } from '#server/videos/delete-video';
import { loadConfig } from '#server/config';

const run = promisify(execFile);

describe('media jobs: the runner over real SQLite, real ffmpeg and real files', () => {
  let t: TestApp;
  let alice: TestUser;
  let clip: string;
  let longClip: string;
  const runners: MediaRunner[] = [];
  const binaries = findFfmpeg();

  beforeAll(async () => {
    t = await createTestApp();
    alice = await createUser(t.deps, { name: 'Alice' });
    clip = await mp4Faststart();
    // Long enough (12 s, 360x640) that ffmpeg is surely still running when the test acts on it.
    longClip = join(t.dataDir, 'long.mp4');
    await run(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=360x640:rate=30', '-t', '12'].concat([
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        longClip,
      ]),
    );
  }, 60_000);
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await t.close();
  });

  const media = (key: string) => join(t.deps.config.mediaDir, key);
  const runnerDeps = () => ({ db: t.deps.db, pokes: t.deps.pokes, log: t.deps.log, now: t.deps.now, mediaDir: t.deps.config.mediaDir });

  function startRunner(over: Partial<RunnerOptions> = {}): MediaRunner {
    const r = createMediaRunner(runnerDeps(), {
      binaries,
      processVideo,
      concurrency: 1,
      threads: 2,
      nice: 10,
      leaseMs: 3000,
      pollMs: 50,
      retry: { maxAttempts: 3, backoffMs: [150, 300] },
      workerId: `w-${Math.random().toString(16).slice(2)}`,
      ...over,
    });
    runners.push(r);
    void r.start();
    return r;
  }

  /** A processing video of `source` with its queued job, as finishUpload writes them (one transaction). */
  async function addVideo(source: string, user = alice): Promise<{ videoId: string; jobId: string }> {
    const videoId = crypto.randomUUID();
    const fileKey = `${user.id}/${Date.now()}-${videoId.slice(0, 8)}.mp4`;
    mkdirSync(media(user.id), { recursive: true });
    copyFileSync(source, media(fileKey));
    const now = t.deps.now();
    const jobId = await writeTx(t.deps, async (trx, changes) => {
      await trx
        .insertInto('videos')
        .values({
          id: videoId,
          user_id: user.id,
          title: 't',
          description: '',
          file_key: fileKey,
          mime_type: 'video/mp4',
          size_bytes: 1,
          duration_ms: 3000,
          sha256: 'x',
          poster_key: null,
          created_at: now,
          media_status: 'processing',
          media_key: null,
          media_error: null,
          captions_key: null,
          likes_count: 0,
          comments_count: 0,
          shares_count: 0,
          views_count: 0,
        })
        .execute();
      changes.videoOwnerOnly(videoId, user.id);
      return enqueueMediaJob(trx, videoId, now);
    });
    return { videoId, jobId };
  }

  const video = (id: string) => t.deps.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
  const job = (id: string) => t.deps.db.selectFrom('media_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const videoFolder = (videoId: string, user = alice) => media(`${user.id}/${videoId}`);

  async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, ms = 30_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((ok) => setTimeout(ok, 25));
    }
  }

  it('processes a queued job: the video becomes ready with its outputs in place, the temp folder gone, progress only to the owner', async () => {
    const pokes: string[][] = [];
    const off = t.deps.pokes.subscribe((scopes) => pokes.push(scopes));
    const started = Date.now();
    const { videoId, jobId } = await addVideo(clip);
    startRunner();
    const v = await until('ready', async () => ((await video(videoId))?.media_status === 'ready' ? video(videoId) : null));
    off();
    console.log(`queued -> ready in ${Date.now() - started} ms`);
    expect(v).toMatchObject({ media_progress: 100, media_error: null, media_key: `${alice.id}/${videoId}/${jobId}` });
    expect(v!.poster_key).toBe(`${v!.media_key}/poster.jpg`);
    for (const f of ['master.m3u8', 'small.mp4', 'poster.jpg']) expect(existsSync(media(`${v!.media_key}/${f}`)), f).toBe(true);
    expect(readFileSync(media(`${v!.media_key}/master.m3u8`), 'utf8')).toContain('#EXTM3U');
    expect(readdirSync(videoFolder(videoId))).toEqual([jobId]);
    expect(await job(jobId)).toMatchObject({ state: 'done', attempts: 1 });
    // Progress went to the owner's devices only; the finish put the video in every feed.
    const progress = pokes.slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) expect(p).toEqual([`user:${alice.id}`]);
    expect(pokes.at(-1)).toEqual(['feed', `video:${videoId}`]);
  }, 60_000);

  it('progress reaches the owner by pull (and by a poke of user:{owner} only); others are never sent the processing video', async () => {
    const bob = await createUser(t.deps, { name: 'Bob' });
    const pull = (u: TestUser, cursor: string | null) => call(t.app, 'POST', '/api/sync/pull', { cursor }, u.token);
    const start = (await pull(alice, null)).json.cursor as string;
    const { videoId } = await addVideo(longClip);
    const pokes: string[][] = [];
    const off = t.deps.pokes.subscribe((scopes) => pokes.push(scopes));
    startRunner();
    await until('progress', async () => ((await video(videoId))?.media_progress ?? 0) > 0);
    off();
    const mine = await pull(alice, start);
    expect(mine.status).toBe(200);
    const item = mine.json.videos.find((v: { id: string }) => v.id === videoId);
    expect(item).toMatchObject({ media_status: 'processing', hls_url: null });
    expect(item.media_progress).toBeGreaterThan(0);
    const theirs = await pull(bob, start);
    expect(theirs.json.videos.map((v: { id: string }) => v.id)).not.toContain(videoId);
    expect(pokes.length).toBeGreaterThan(0);
    for (const p of pokes) expect(p).toEqual([`user:${alice.id}`]);
    await writeTx(t.deps, (trx, changes) => deleteVideoInTx(trx, changes, videoId));
  }, 60_000);

  it('deleting a video mid-processing kills its ffmpeg and leaves no files', async () => {
    const { videoId, jobId } = await addVideo(longClip);
    let progressed = false;
    const watched: ProcessVideoFn = (input) => processVideo({ ...input, onProgress: (p) => ((progressed = p > 0), input.onProgress?.(p)) });
    startRunner({ processVideo: watched });
    await until('ffmpeg encoding', () => progressed);
    const source = (await video(videoId))!.file_key;
    expect(await ffmpegPidsReading(source)).not.toEqual([]);
    const started = Date.now();
    await writeTx(t.deps, async (trx, changes) => {
      await deleteVideoInTx(trx, changes, videoId);
    });
    console.log(`delete -> ffmpeg gone and folder removed in ${Date.now() - started} ms`);
    expect(await ffmpegPidsReading(source)).toEqual([]);
    expect(existsSync(videoFolder(videoId))).toBe(false);
    expect(await job(jobId)).toMatchObject({ state: 'done' });
    // The runner is free again and nothing reappears.
    await new Promise((ok) => setTimeout(ok, 300));
    expect(existsSync(videoFolder(videoId))).toBe(false);
  }, 60_000);
});

/** Live ffmpeg processes whose command line names the file (read from /proc: no mocks). */
async function ffmpegPidsReading(fileKey: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.includes('ffmpeg') && cmd.includes(fileKey)) pids.push(Number(name));
  }
  return pids;
}

describe('media runner configuration', () => {
  it('has defaults and refuses values out of range, naming the variable', () => {
    expect(loadConfig({}).media).toEqual({
      worker: true,
      concurrency: 1,
      ffmpegThreads: 2,
      nice: 10,
      leaseMs: 60_000,
      ffmpegPath: undefined,
      ffprobePath: undefined,
    });
    expect(loadConfig({ MEDIA_WORKER: 'off', MEDIA_CONCURRENCY: '8', MEDIA_NICE: '0' }).media).toMatchObject({ worker: false, concurrency: 8, nice: 0 });
    for (const [name, value] of [
      ['MEDIA_WORKER', 'yes'],
      ['MEDIA_CONCURRENCY', '0'],
      ['MEDIA_CONCURRENCY', '9'],
      ['MEDIA_FFMPEG_THREADS', '17'],
      ['MEDIA_NICE', '20'],
    ]) {
      expect(() => loadConfig({ [name!]: value }), `${name}=${value}`).toThrow(name);
    }
  });
});
