import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Database } from '#db/schema';
import type { MediaStore } from '#server/storage/media-store';
import { writeTx } from '#server/changes/write-tx';
import { enqueueMediaJob } from '#server/media/jobs/queue';
import { createMediaRunner, type MediaRunner } from '#server/media/jobs/runner';
import type { RunnerDeps, RunnerOptions } from '#server/media/jobs/types';
import { findFfmpeg } from '#server/media/processing/ffmpeg-binaries';
import { processVideo } from '#server/media/processing/process-video';
import { ffmpeg } from '../fixtures/ffmpeg-cache';
import { mp4Faststart } from '../fixtures/videos';
import { PROJECT_ROOT } from './server-process';
import { nodeEntryArgs } from '../../scripts/lib/node-entry';
import { createTestApp, type TestApp } from './test-app';
import { createUser, type TestUser } from './users';
import { insertVideo, type VideoOverrides } from './videos';

// Shared steps of the media-job tests (tests/integration/media-jobs*.test.ts, docs/media.md).

/** Writes a 12 s 360x640 H.264 clip to `file`: several seconds of ffmpeg, so a test can act while it still runs. */
export async function makeLongClip(file: string, seconds = 12): Promise<string> {
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=360x640:rate=30',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}

/** Stores the file `source` in `store` as `fileKey`, where an upload leaves it (the disk or a bucket). */
export async function placeUpload(store: MediaStore, source: string, fileKey: string): Promise<void> {
  await store.putOnce(fileKey, readFileSync(source), 'video/mp4');
}

/** A processing video row and its queued job, written in `trx` as finishUpload writes them; returns the job id. */
export async function queueProcessingVideo(
  trx: Kysely<Database>,
  ownerId: string,
  video: VideoOverrides & { id: string; file_key: string; created_at: number },
): Promise<string> {
  await insertVideo({ db: trx }, ownerId, { title: 't', size_bytes: 1, duration_ms: 3000, media_status: 'processing', ...video });
  return enqueueMediaJob(trx, video.id, video.created_at);
}

/** The temp folders (`.tmp-{jobId}-{try}`) in a video's media folder. */
export const tempFoldersIn = (folder: string): string[] => (existsSync(folder) ? readdirSync(folder).filter((n) => n.startsWith('.tmp-')) : []);

/** Polls `probe` every `everyMs` until it gives something truthy; after `ms`, throws naming `what` (and `detail()`). */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  ms = 30_000,
  { everyMs = 25, detail = () => '' }: { everyMs?: number; detail?: () => string } = {},
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${detail()}`);
    await new Promise((ok) => setTimeout(ok, everyMs));
  }
}

/** Live ffmpeg processes whose command line names `part` (read from /proc: no mocks). */
export function ffmpegPidsNaming(part: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.includes('ffmpeg') && cmd.includes(part)) pids.push(Number(name));
  }
  return pids;
}

/** A real `npm run worker` process (server/worker.ts). */
export interface WorkerProcess {
  readonly pid: number;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves once it printed its start line (its start-up sweep is done); rejects if it exits first. */
  readonly ready: Promise<void>;
  /** Its exit code (null when a signal killed it). */
  readonly exited: Promise<number | null>;
  /** SIGKILL (a crash), resolved once it is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (a clean stop), resolved with its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Spawns `npm run worker` with `env` over the test's environment. PUBLIC_URL is set because a
 * process on PostgreSQL refuses to start without it (sharedDeploymentProblems in server/config.ts).
 */
export function spawnWorker(env: Record<string, string>): WorkerProcess {
  let out = '';
  const child = spawn(process.execPath, nodeEntryArgs('worker'), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', PUBLIC_URL: 'http://127.0.0.1:9', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const ready = new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Vidi media worker running')) ok();
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then((code) => fail(new Error(`the worker exited (${code}) before it ran:\n${out}`)));
  });
  // Nobody may be waiting on ready when a worker dies on purpose.
  ready.catch(() => {});
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    pid: child.pid ?? 0,
    output: () => out,
    ready,
    exited,
    kill9: async () => {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (!gone()) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Whether a worker id (runner.ts newWorkerId: host-pid-random) names the process `pid`. */
export const workerIdOf = (id: string | null, pid: number): boolean => !!id && id.includes(`-${pid}-`);

export interface MediaJobsWorld {
  /** The app (set in beforeAll). */
  readonly t: TestApp;
  /** The member who uploads (set in beforeAll). */
  readonly alice: TestUser;
  /** A 3 s faststart MP4 (set in beforeAll). */
  readonly clip: string;
  media(key: string): string;
  runnerDeps(): RunnerDeps;
  /** A runner with fast test timings, stopped after each test; not started. */
  createRunner(over?: Partial<RunnerOptions>): MediaRunner;
  /** createRunner, started in the background. */
  startRunner(over?: Partial<RunnerOptions>): MediaRunner;
  /** A processing video of `source` with its queued job, as finishUpload writes them (one transaction). */
  addVideo(source: string, user?: TestUser): Promise<{ videoId: string; jobId: string }>;
  video(id: string): ReturnType<typeof videoRow>;
  job(id: string): ReturnType<typeof jobRow>;
  videoFolder(videoId: string, user?: TestUser): string;
  tempFolders(videoId: string): string[];
}

const videoRow = (db: Kysely<Database>, id: string) => db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
const jobRow = (db: Kysely<Database>, id: string) => db.selectFrom('media_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/**
 * The runner in-process over real SQLite, real ffmpeg and real files: registers the hooks that
 * open the app (with Alice and a clip; `env` adds to its environment), stop every runner after each
 * test, and close the app.
 */
export function useMediaJobsWorld(env: () => Promise<Record<string, string>> = async () => ({})): MediaJobsWorld {
  let t: TestApp | undefined;
  let alice: TestUser | undefined;
  let clip: string | undefined;
  const runners: MediaRunner[] = [];
  const binaries = findFfmpeg();
  const need = <T>(v: T | undefined, name: string): T => {
    if (v === undefined) throw new Error(`the media-jobs world has no ${name} before beforeAll`);
    return v;
  };

  beforeAll(async () => {
    t = await createTestApp(await env());
    alice = await createUser(t.deps, { name: 'Alice' });
    clip = await mp4Faststart();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  afterAll(async () => {
    await t?.close();
  });

  const w: MediaJobsWorld = {
    get t() {
      return need(t, 'app');
    },
    get alice() {
      return need(alice, 'Alice');
    },
    get clip() {
      return need(clip, 'clip');
    },
    media: (key) => join(w.t.deps.config.mediaDir, key),
    runnerDeps: () => ({ db: w.t.deps.db, pokes: w.t.deps.pokes, log: w.t.deps.log, now: w.t.deps.now, media: w.t.deps.media }),
    createRunner(over = {}) {
      const r = createMediaRunner(w.runnerDeps(), {
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
      return r;
    },
    startRunner(over = {}) {
      const r = w.createRunner(over);
      void r.start();
      return r;
    },
    async addVideo(source, user = w.alice) {
      const videoId = crypto.randomUUID();
      const fileKey = `${user.id}/${Date.now()}-${videoId.slice(0, 8)}.mp4`;
      await placeUpload(w.t.deps.media, source, fileKey);
      const now = w.t.deps.now();
      const jobId = await writeTx(w.t.deps, async (trx, changes) => {
        const id = await queueProcessingVideo(trx, user.id, { id: videoId, file_key: fileKey, created_at: now });
        changes.videoOwnerOnly(videoId, user.id);
        return id;
      });
      return { videoId, jobId };
    },
    video: (id) => videoRow(w.t.deps.db, id),
    job: (id) => jobRow(w.t.deps.db, id),
    videoFolder: (videoId, user = w.alice) => w.media(`${user.id}/${videoId}`),
    tempFolders: (videoId) => tempFoldersIn(w.videoFolder(videoId)),
  };
  return w;
}
