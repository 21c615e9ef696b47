import { insertMember } from '../helpers/users';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle } from '#db/connect';
import { DiskMediaStore } from '#server/storage/disk-media-store';
import { PROJECT_ROOT, startServer, type ServerProcess } from '../helpers/server-process';
import { testDatabaseEnv } from '../helpers/test-database';
import { ffmpegPidsNaming, makeLongClip, placeUpload, queueProcessingVideo, tempFoldersIn, until as waitUntil } from '../helpers/media-jobs';

/**
 * The runner in real processes: `npm start` killed with SIGKILL while ffmpeg runs must finish the
 * job after a restart on the same DATA_DIR; `npm run worker` stopped with SIGTERM gives its job back.
 */
describe('media jobs across processes', () => {
  let dataDir: string;
  let clip: string;
  let handle: DbHandle;
  /** The database the server and the worker use: their PostgreSQL database, or the SQLite file in DATA_DIR. */
  let databaseEnv: Record<string, string>;
  let server: ServerProcess | undefined;
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
    waitUntil(what, probe, ms, { everyMs: 50, detail: () => (server ? `\n${server.output().slice(-3000)}` : '') });

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
    let out = '';
    const worker = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...databaseEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout.on('data', (d: Buffer) => (out += d.toString()));
    worker.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((ok) => worker.once('exit', (code) => ok(code)));
    await until('processing under way', async () => temps(videoId).length > 0 && (await video(videoId)).media_progress > 0);
    const t0 = Date.now();
    worker.kill('SIGTERM');
    const code = await exited;
    console.log(`worker stopped ${Date.now() - t0} ms after SIGTERM`);
    expect(code, out).toBe(0);
    expect(await job(jobId)).toMatchObject({ state: 'queued', attempts: 0, lease_until: 0 });
    expect(temps(videoId)).toEqual([]);
  }, 60_000);
});
