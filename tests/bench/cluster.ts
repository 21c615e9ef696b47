import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase } from '#tests/support/postgres-cluster';
import { insertVideo } from '../helpers/videos';
import { markAllProcessed } from '../helpers/media-processed';
import { openDatabase } from '#db/connect';
import { freePort, startCluster, type Cluster } from '../../scripts/lib/cluster/start-cluster';
import { nodeEntryArgs } from '../../scripts/lib/node-entry';
import { PROJECT_ROOT, startNodeProcess, type ManagedProcess } from '../../scripts/lib/cluster/node-process';
import { logIn, openEventStream, pushLike, signUpVerified, type SignUpTarget } from '../cluster/cluster-session';
import { failed, ratioRow, type BenchRow } from './lib/result';
import { interleaved } from './lib/load';
import { quantile } from './lib/stats';
import { paddedMp4 } from './lib/video-file';
import { tusUpload } from './lib/tus-upload';
import { CHUNK_SIZE, FAST_LINK_CHUNK_SIZE } from '#client/sync/uploads/upload-queue';

// `npm run bench -- --cluster`: what several instances cost against one, in the same run
// (docs/benchmarks.md, "Several instances"). The cluster is startCluster's (PostgreSQL, the S3
// gateway, two web instances, nginx); the single instance is one more `server/main.ts` on its
// own database of the same PostgreSQL server, with media on its disk (no S3_BUCKET).

const MiB = 1024 * 1024;

export interface ClusterBenchOptions {
  quick: boolean;
  rounds: number;
  tmpDir: string;
  /** The rows to run (CLUSTER_BENCH_IDS); all when undefined. */
  only?: readonly string[] | undefined;
  log(message: string): void;
}

interface Single extends SignUpTarget {
  process: ManagedProcess;
  databaseUrl: string;
}

/** One web instance as `npm start` runs it on PostgreSQL: disk media, its own database, its own DATA_DIR. */
async function startSingle(cluster: Cluster, tmpDir: string): Promise<Single> {
  const name = `vidi_single_${randomBytes(3).toString('hex')}`;
  const adminUrl = cluster.databaseUrl.replace(/\/[^/]*$/, '/postgres');
  await createDatabase(adminUrl, name);
  const databaseUrl = cluster.databaseUrl.replace(/\/[^/]*$/, `/${name}`);
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/migrate.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'ignore',
  });
  const port = await freePort();
  const dataDir = join(tmpDir, 'single');
  mkdirSync(dataDir, { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  const env = { ...cluster.sharedEnv, S3_BUCKET: '', DATABASE_URL: databaseUrl, PUBLIC_URL: url, TRUST_PROXY_HOPS: '0', LOG_LEVEL: 'error' };
  const process_ = await startNodeProcess({
    name: 'single',
    args: nodeEntryArgs('main'),
    ready: /Vidi listening on/,
    logFile: join(tmpDir, 'single.log'),
    env: { ...env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, MEDIA_WORKER: 'off' },
  });
  return { url, instances: [{ dataDir }], process: process_, databaseUrl };
}

/** A watcher's stream on `streamOrigin`, a liker pushing to `pushOrigin`: push sent -> poke read, per like. */
async function pokeSpans(
  target: SignUpTarget & { databaseUrl: string },
  streamOrigin: string,
  pushOrigin: string,
  likes: number,
): Promise<() => Promise<number[]>> {
  const tag = randomBytes(3).toString('hex');
  const watcherEmail = `bench-watch-${tag}@example.test`;
  const likerEmail = `bench-like-${tag}@example.test`;
  const watcherId = await signUpVerified(target, 'Bench Watcher', watcherEmail);
  await signUpVerified(target, 'Bench Liker', likerEmail);
  const watcher = await logIn(streamOrigin, watcherEmail);
  const liker = await logIn(pushOrigin, likerEmail);
  const handle = openDatabase(target.databaseUrl);
  const videoId = await insertVideo(handle, watcherId, { title: 'Bench clip' }).finally(() => handle.close());
  const clientId = randomUUID();
  let next = 1;
  return async () => {
    const stream = await openEventStream(streamOrigin, watcher.token);
    try {
      await stream.ready;
      const spans: number[] = [];
      for (let i = 0; i < likes; i++) {
        const seen = stream.pokes.length;
        const t0 = performance.now();
        const id = next++;
        await pushLike(pushOrigin, liker.token, clientId, id, id % 2 === 1, videoId);
        const deadline = Date.now() + 10_000;
        while (stream.pokes.length <= seen) {
          if (Date.now() > deadline) throw new Error(`no poke on ${streamOrigin} within 10 s of a like pushed to ${pushOrigin}`);
          await new Promise((r) => setTimeout(r, 1));
        }
        spans.push(stream.pokes[seen]! - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
      return spans;
    } finally {
      stream.close();
    }
  };
}

async function pokeRows(cluster: Cluster, single: Single, o: ClusterBenchOptions): Promise<BenchRow[]> {
  const [a, b] = cluster.instances;
  const likes = o.quick ? 10 : 30;
  const across = await pokeSpans(cluster, b!.url, a!.url, likes);
  const alone = await pokeSpans(single, single.url, single.url, likes);
  const s = await interleaved(o.rounds, across, alone);
  const pick = (q: number) => (rounds: number[][]) => rounds.map((spans) => quantile(spans, q));
  const notes = `${likes} likes a round; push sent to instance A -> poke read on a stream held by instance B (LISTEN/NOTIFY) vs the same on one instance alone`;
  return [
    ratioRow({ name: 'Cluster: poke across instances, p50', unit: 'ms', direction: 'lower', notes }, pick(0.5)(s.ours), pick(0.5)(s.base)),
    ratioRow({ name: 'Cluster: poke across instances, p95', unit: 'ms', direction: 'lower', notes }, pick(0.95)(s.ours), pick(0.95)(s.base)),
  ];
}

/**
 * The app's chunks (client/sync/uploads/upload-queue.ts): through nginx its 5 MiB one (a slow,
 * metered or unknown link), which spreads the PATCHes over both instances; through one instance
 * that of a fast, unmetered link (50 MiB: this file in one PATCH), issue 32's case.
 */
const CHUNK_BYTES = { nginx: CHUNK_SIZE, 'one instance': FAST_LINK_CHUNK_SIZE } as const;

/** The same upload into S3 (through nginx to both instances, or straight to one) and onto one instance's disk, interleaved. */
async function uploadRow(cluster: Cluster, single: Single, o: ClusterBenchOptions, via: 'nginx' | 'one instance'): Promise<BenchRow> {
  const size = (o.quick ? 24 : 48) * MiB;
  const data = readFileSync(paddedMp4(join(o.tmpDir, `cluster-upload-${size}.mp4`), size).file);
  const tag = randomBytes(3).toString('hex');
  await signUpVerified(cluster, 'Bench Uploader', `bench-up-${tag}@example.test`);
  await signUpVerified(single, 'Bench Uploader', `bench-up-${tag}@example.test`);
  const s3Origin = via === 'nginx' ? cluster.url : cluster.instances[0]!.url;
  const clusterToken = (await logIn(s3Origin, `bench-up-${tag}@example.test`)).token;
  const singleToken = (await logIn(single.url, `bench-up-${tag}@example.test`)).token;
  const mibps = (origin: string, token: string, databaseUrl: string) => async () => {
    // A member may have only 3 videos in processing and no runner runs here: the last ones count as done.
    const handle = openDatabase(databaseUrl);
    await markAllProcessed(handle).finally(() => handle.close());
    const t0 = performance.now();
    await tusUpload({ origin, token, data, writeBytes: MiB, chunkSize: CHUNK_BYTES[via] });
    return size / MiB / ((performance.now() - t0) / 1000);
  };
  // The disk side's rounds spread by ±25-53 % within a run on a shared machine (docs/benchmarks.md):
  // twice the rounds for issue 32's row, on both sides alike, steady its medians for a few seconds more.
  const rounds = via === 'one instance' ? 2 * o.rounds : o.rounds;
  const s = await interleaved(rounds, mibps(s3Origin, clusterToken, cluster.databaseUrl), mibps(single.url, singleToken, single.databaseUrl));
  const path =
    via === 'nginx'
      ? 'the app’s 5 MiB chunks (slow or metered link) through nginx to 2 instances'
      : 'the app’s 50 MiB chunks of a fast, unmetered link (one PATCH) straight to one of the cluster’s instances (issue 32: at least 0.5x)';
  return ratioRow(
    {
      name:
        via === 'nginx'
          ? `Cluster: ${size / MiB} MiB tus upload into S3 vs disk`
          : `Cluster: ${size / MiB} MiB tus upload into S3 through one instance vs disk`,
      unit: 'MiB/s',
      direction: 'higher',
      ...(via === 'one instance' ? { targetRatio: 0.5 } : {}),
      notes: `${path}, @tus/s3-store into the Ceph RGW bucket vs straight to one instance writing DATA_DIR`,
    },
    s.ours,
    s.base,
  );
}

/** What `--cluster --only` picks from: the ids of the rows below and of media-serving-s3.ts. */
export const CLUSTER_BENCH_IDS = ['poke', 'upload-s3', 'upload-s3-one', 'media-s3'] as const;
export type ClusterBenchId = (typeof CLUSTER_BENCH_IDS)[number];

/** Both rows against a cluster and a single instance started for the run, stopped at its end. */
export async function runClusterBench(o: ClusterBenchOptions): Promise<BenchRow[]> {
  o.log('starting the cluster: PostgreSQL (durable), the S3 gateway, 2 web instances, nginx');
  // One member liking as fast as the server answers is a bot by the production push limit
  // (docs/sync.md): lifted here as in run.ts; the single instance inherits the same environment.
  const cluster = await startCluster({ workers: 0, env: { LOG_LEVEL: 'error', PUSH_RATE_BURST: '1000000', PUSH_RATE_PER_MINUTE: '1000000' } });
  let single: Single | undefined;
  const rows: BenchRow[] = [];
  try {
    single = await startSingle(cluster, o.tmpDir);
    for (const [id, title, run] of [
      ['poke', 'poke across instances', () => pokeRows(cluster, single!, o)],
      ['upload-s3', 'upload into S3', async () => [await uploadRow(cluster, single!, o, 'nginx')]],
      ['upload-s3-one', 'upload into S3 through one instance', async () => [await uploadRow(cluster, single!, o, 'one instance')]],
    ] as const) {
      if (o.only && !o.only.includes(id)) continue;
      o.log(`> Cluster: ${title}`);
      try {
        rows.push(...(await run()));
      } catch (e) {
        console.error(e);
        rows.push(failed(`Cluster: ${title}`, '', '', e));
      }
    }
  } finally {
    await single?.process.stop();
    await cluster.stop();
  }
  return rows;
}
