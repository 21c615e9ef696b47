import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle } from '#db/connect';
import { loadConfig } from '#server/config';
import type { MediaStore } from '#server/storage/media-store';
import { openMediaStore } from '#server/storage/open-media-store';
import {
  ffmpegPidsNaming,
  makeLongClip,
  placeUpload,
  queueProcessingVideo,
  spawnWorker,
  until as waitUntil,
  workerIdOf,
  type WorkerProcess,
} from '../helpers/media-jobs';
import { testDatabaseEnv } from '../helpers/test-database';
import { testStorageEnv } from '../helpers/test-storage';
import { insertMember } from '../helpers/users';

const text = async (s: ReadableStream<Uint8Array>) => Buffer.from(await new Response(s).arrayBuffer()).toString();

/** Paths under `dir` (recursive) whose name contains `part`: what a try left on that machine. */
const leftovers = (dir: string, part: string): string[] =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((p) => p.includes(part));

/**
 * Media workers on two "machines" (two DATA_DIRs, nothing shared but the database and the bucket):
 * the worker holding a job is SIGKILLed mid-encode, the other takes the job after its lease and
 * publishes it to the bucket; the killed machine's scratch goes when a worker starts there again.
 */
describe('media workers on S3: a killed worker’s job is finished by a worker on another machine', () => {
  let root: string;
  let clip: string;
  let handle: DbHandle;
  let store: MediaStore;
  /** Database and bucket: all the two machines share. */
  let sharedEnv: Record<string, string>;
  const machines = { a: '', b: '' };
  const workers: WorkerProcess[] = [];
  const userId = randomUUID();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'vidi-media-s3-'));
    for (const m of ['a', 'b'] as const) mkdirSync((machines[m] = join(root, `machine-${m}`)));
    // 12 s at 360x640: several seconds of ffmpeg, so the kill lands mid-encode.
    clip = await makeLongClip(join(root, 'long.mp4'));
    const database = await testDatabaseEnv(root);
    // On SQLite both machines open one file: the only way two processes of different DATA_DIRs share it.
    sharedEnv = { DATABASE_URL: join(root, 'vidi.sqlite'), ...database, ...(await testStorageEnv()) };
    handle = openDatabase(sharedEnv.DATABASE_URL!);
    await migrateToLatest(handle.db);
    await insertMember(handle.db, { id: userId, email: 's3-crash@example.test', name: 'Crash' });
    store = openMediaStore(loadConfig({ DATA_DIR: root, ...sharedEnv }));
    expect(store.kind).toBe('s3');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill9()));
    // A killed worker's ffmpeg outlives it until its scratch goes; never leave one behind.
    for (const pid of ffmpegPidsNaming(root)) process.kill(pid, 'SIGKILL');
    await store?.close();
    await handle?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const video = (id: string) => handle.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const job = (id: string) => handle.db.selectFrom('media_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const until = <T>(what: string, probe: () => Promise<T | null | false | undefined> | T | null | false | undefined, ms = 90_000): Promise<T> =>
    waitUntil(what, probe, ms, { everyMs: 100, detail: () => workers.map((w) => `\n--- worker ${w.pid}\n${w.output().slice(-3000)}`).join('') });
  const worker = (machine: 'a' | 'b') => {
    // A 2 s lease, so the survivor takes over quickly.
    const w = spawnWorker({ ...sharedEnv, DATA_DIR: machines[machine], MEDIA_LEASE_SECONDS: '2' });
    workers.push(w);
    return w;
  };

  let killed: { machine: 'a' | 'b'; jobId: string } | undefined;

  it('SIGKILL mid-encode: the other machine’s worker takes the job after the lease; the video is ready and its HLS is read from the bucket', async () => {
    const pair = { a: worker('a'), b: worker('b') };
    await Promise.all([pair.a.ready, pair.b.ready]);
    const videoId = randomUUID();
    const fileKey = `${userId}/${Date.now()}-clip.mp4`;
    await placeUpload(store, clip, fileKey);
    const jobId = await handle.db
      .transaction()
      .execute((trx) => queueProcessingVideo(trx, userId, { id: videoId, file_key: fileKey, created_at: Date.now(), title: 'long', duration_ms: 12_000 }));
    const holder = await until('one worker encoding', async () => {
      const held = (await job(jobId)).worker_id;
      if ((await video(videoId)).media_progress <= 0) return null;
      return workerIdOf(held, pair.a.pid) ? 'a' : workerIdOf(held, pair.b.pid) ? 'b' : null;
    });
    const survivor = holder === 'a' ? 'b' : 'a';
    // The try's scratch is on the holder's machine only; nothing of it is in the bucket yet.
    expect(leftovers(machines[holder], `.tmp-${jobId}-1`)).not.toEqual([]);
    expect(await store.listFolders(`${userId}/${videoId}`)).toEqual([]);
    await pair[holder].kill9();
    killed = { machine: holder, jobId };
    const killedAt = Date.now();
    expect(await video(videoId)).toMatchObject({ media_status: 'processing', media_key: null });

    const ready = await until('ready after the kill', async () => {
      const v = await video(videoId);
      return v.media_status === 'ready' ? v : null;
    });
    console.log(`worker on machine ${survivor} finished the job ${Date.now() - killedAt} ms after the SIGKILL on machine ${holder}`);
    const j = await job(jobId);
    expect(j).toMatchObject({ state: 'done', attempts: 2 });
    expect(workerIdOf(j.worker_id, pair[survivor].pid), `${j.worker_id} is not the survivor (${pair[survivor].pid})`).toBe(true);
    expect(ready.media_key).toBe(`${userId}/${videoId}/${jobId}`);
    expect(ready.poster_key).toBe(`${ready.media_key}/poster.jpg`);
    // Published whole to the bucket: the ladder's playlists, a segment list, the poster and the small MP4.
    expect(await store.listFolders(`${userId}/${videoId}`)).toEqual([jobId]);
    const master = await text(await store.read(`${ready.media_key}/master.m3u8`));
    expect(master).toContain('#EXTM3U');
    const variant = master.split('\n').find((l) => l.endsWith('.m3u8'));
    expect(variant, master).toBeDefined();
    expect(await text(await store.read(`${ready.media_key}/${variant}`))).toContain('#EXTINF');
    for (const f of ['poster.jpg', 'small.mp4']) expect((await store.stat(`${ready.media_key}/${f}`))?.size, f).toBeGreaterThan(0);
    // The survivor kept nothing local: its scratch was published and removed, its copy of the source deleted.
    expect(leftovers(machines[survivor], jobId)).toEqual([]);
    expect(leftovers(machines[survivor], '.mp4')).toEqual([]);
    expect(await pair[survivor].stop(), pair[survivor].output()).toBe(0);
  }, 180_000);

  it('a worker started again on the killed machine removes the dead try’s scratch, and the orphaned ffmpeg stops', async () => {
    if (!killed) throw new Error('needs the test above');
    const { machine, jobId } = killed;
    // The store lists this machine's scratch for the start-up sweep (sweepLocalScratch in server/media/jobs/sweep.ts).
    expect(typeof (store as { listScratch?: unknown }).listScratch, 'S3MediaStore has no listScratch()').toBe('function');
    // The killed worker's copy of the source is named after its process, which is gone.
    const sourceCopies = () => leftovers(machines[machine], 'downloads/').filter((p) => p.endsWith('.mp4'));
    expect(sourceCopies()).toHaveLength(1);
    const again = worker(machine);
    await again.ready;
    expect(leftovers(machines[machine], `.tmp-${jobId}-`)).toEqual([]);
    expect(sourceCopies()).toEqual([]);
    await until('the orphaned ffmpeg gone', () => ffmpegPidsNaming(`.tmp-${jobId}-1`).length === 0, 20_000);
    expect(await again.stop(), again.output()).toBe(0);
  }, 60_000);
});
