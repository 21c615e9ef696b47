import { insertMember } from '../helpers/users';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle } from '#db/connect';
import { DiskMediaStore } from '#server/storage/disk-media-store';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { testDatabaseEnv } from '../helpers/test-database';
import {
  ffmpegPidsNaming,
  makeLongClip,
  placeUpload,
  queueProcessingVideo,
  spawnWorker,
  tempFoldersIn,
  until as waitUntil,
  workerIdOf,
  type WorkerProcess,
} from '../helpers/media-jobs';

/**
 * The runner in real processes: `npm start` killed with SIGKILL while ffmpeg runs must finish the
 * job after a restart on the same DATA_DIR; `npm run worker` stopped with SIGTERM gives its job back;
 * of two workers, the one left finishes the job of the one killed.
 */
describe('media jobs across processes', () => {
  let dataDir: string;
  let clip: string;
  let handle: DbHandle;
  /** The database the server and the worker use: their PostgreSQL database, or the SQLite file in DATA_DIR. */
  let databaseEnv: Record<string, string>;
  let server: ServerProcess | undefined;
  const workers: WorkerProcess[] = [];
  const userId = randomUUID();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-media-crash-'));
    // 12 s at 360x640: several seconds of ffmpeg, so the kill lands mid-encode.
    clip = await makeLongClip(join(dataDir, 'long.mp4'));
    databaseEnv = await testDatabaseEnv(dataDir);
    handle = openDatabase(databaseEnv.DATABASE_URL ?? join(dataDir, 'vidi.sqlite'));
    await migrateToLatest(handle.db);
    await insertMember(handle.db, { id: userId, email: 'crash@example.test', name: 'Crash' });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill9()));
    await server?.stop();
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A processing video and its queued job, as finishUpload writes them. */
  async function addVideo(): Promise<{ videoId: string; jobId: string }> {
    const videoId = randomUUID();
    const fileKey = `${userId}/${Date.now()}-clip.mp4`;
    await placeUpload(new DiskMediaStore(join(dataDir, 'media')), clip, fileKey);
    const now = Date.now();
    const jobId = await handle.db
      .transaction()
      .execute((trx) => queueProcessingVideo(trx, userId, { id: videoId, file_key: fileKey, created_at: now, title: 'long', duration_ms: 12_000 }));
    return { videoId, jobId };
  }

  const folder = (videoId: string) => join(dataDir, 'media', userId, videoId);
  const temps = (videoId: string) => tempFoldersIn(folder(videoId));
  const video = (id: string) => handle.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const job = (id: string) => handle.db.selectFrom('media_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const until = <T>(what: string, probe: () => Promise<T | null | false> | T | null | false, ms = 60_000): Promise<T> =>
    waitUntil(what, probe, ms, { everyMs: 50, detail: () => [server, ...workers].map((p) => (p ? `\n${p.output().slice(-3000)}` : '')).join('') });

  it('kill -9 mid-encode, restart on the same DATA_DIR: the job finishes, its outputs are served, no temp folder is left', async () => {
    const { videoId, jobId } = await addVideo();
    const t0 = Date.now();
    // A 2 s lease, so the restarted server takes over the dead process's job quickly.
    server = await startServer({ dataDir, env: { MEDIA_LEASE_SECONDS: '2' } });
    await until('processing under way', async () => temps(videoId).length > 0 && (await video(videoId)).media_progress > 0);
    const progressAtKill = (await video(videoId)).media_progress;
    await server.kill9();
    const t1 = Date.now();
    expect(temps(videoId)).toHaveLength(1);
    expect(await job(jobId)).toMatchObject({ state: 'running', attempts: 1 });
    await server.restart();
    const ready = await until('ready after the restart', async () => {
      const v = await video(videoId);
      return v.media_status === 'ready' ? v : null;
    });
    console.log(`killed at ${progressAtKill} % after ${t1 - t0} ms; ready ${Date.now() - t1} ms after the kill`);
    expect(ready.media_key).toBe(`${userId}/${videoId}/${jobId}`);
    expect(await job(jobId)).toMatchObject({ state: 'done', attempts: 2 });
    expect(temps(videoId)).toEqual([]);
    expect(readdirSync(folder(videoId))).toEqual([jobId]);
    const master = await fetch(`${server.url}/media/${ready.media_key}/master.m3u8`);
    expect(master.status).toBe(200);
    expect(await master.text()).toContain('#EXTM3U');
    expect((await fetch(`${server.url}/media/${ready.poster_key}`)).status).toBe(200);
    // The killed process's ffmpeg outlives it (nothing kills an orphan) but dies once its folder is swept.
    await until('the orphaned ffmpeg gone', () => ffmpegPidsNaming(`.tmp-${jobId}-1`).length === 0, 20_000);
    await server.stop();
    server = undefined;
  }, 120_000);

  it('npm run worker: SIGTERM mid-encode stops ffmpeg, gives the job back at once and leaves no temp folder', async () => {
    const { videoId, jobId } = await addVideo();
    const worker = spawnWorker({ DATA_DIR: dataDir, ...databaseEnv });
    workers.push(worker);
    await until('processing under way', async () => temps(videoId).length > 0 && (await video(videoId)).media_progress > 0);
    const t0 = Date.now();
    const code = await worker.stop();
    console.log(`worker stopped ${Date.now() - t0} ms after SIGTERM`);
    expect(code, worker.output()).toBe(0);
    expect(await job(jobId)).toMatchObject({ state: 'queued', attempts: 0, lease_until: 0 });
    expect(temps(videoId)).toEqual([]);
  }, 60_000);

  it('two npm run worker processes: the one running the job is SIGKILLed mid-encode, the other finishes it after the lease', async () => {
    // A 2 s lease, so the survivor takes over quickly; both share DATA_DIR and the database.
    const env = { DATA_DIR: dataDir, MEDIA_LEASE_SECONDS: '2', ...databaseEnv };
    const pair = [spawnWorker(env), spawnWorker(env)] as const;
    workers.push(...pair);
    // Both running before the job exists: either may claim it, and the other is the survivor.
    await Promise.all(pair.map((p) => p.ready));
    const { videoId, jobId } = await addVideo();
    const holder = await until('one worker processing', async () => {
      const held = (await job(jobId)).worker_id;
      return temps(videoId).length > 0 && (await video(videoId)).media_progress > 0 && pair.find((p) => workerIdOf(held, p.pid));
    });
    const [a, b] = holder === pair[0] ? pair : [pair[1], pair[0]];
    await a.kill9();
    const killedAt = Date.now();
    expect(await video(videoId)).toMatchObject({ media_status: 'processing', media_key: null });
    const ready = await until('ready after the kill', async () => {
      const v = await video(videoId);
      return v.media_status === 'ready' ? v : null;
    });
    console.log(`worker B finished A's job ${Date.now() - killedAt} ms after A's SIGKILL`);
    const j = await job(jobId);
    expect(j).toMatchObject({ state: 'done', attempts: 2 });
    expect(workerIdOf(j.worker_id, b.pid), `${j.worker_id} is not B (${b.pid})`).toBe(true);
    expect(ready.media_key).toBe(`${userId}/${videoId}/${jobId}`);
    expect(readdirSync(folder(videoId))).toEqual([jobId]);
    expect(readFileSync(join(folder(videoId), jobId, 'master.m3u8'), 'utf8')).toContain('#EXTM3U');
    // B's claim swept A's temp folder, so A's orphaned ffmpeg stops too.
    await until('the orphaned ffmpeg gone', () => ffmpegPidsNaming(`.tmp-${jobId}-1`).length === 0, 20_000);
    expect(await b.stop(), b.output()).toBe(0);
  }, 120_000);
});
