import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../helpers/server-process';
import { machine, pickViewer, privateClientCopy, seedIfMissing, SEEDS, writeResults } from './lib/run-setup';
import { failed, formatTable, markdownTable, type BenchRow } from './lib/result';
import { tokenMinter, type Benchmark, type BenchContext } from './lib/context';
import { freePort } from './lib/processes';
import { apiFloor } from './api-floor';
import { feed } from './feed';
import { followingFeed } from './following-feed';
import { search } from './search';
import { push } from './push';
import { upload } from './upload';
import { leaderboards } from './leaderboards';
import { browserOffline } from './browser-offline';
import { dexieBulk } from './dexie-bulk';
import { liveUpdate } from './live-update';
import { bundle } from './bundle';
import { lighthouseBench } from './lighthouse';
import { media } from './media-bench';
import { syncCost } from './sync-cost';
import { postgresViewer, startBenchPostgres, type BenchPostgres } from './lib/postgres';
import { CLUSTER_BENCH_IDS, runClusterBench } from './cluster';
import { benchMediaServingS3 } from './media-serving-s3';
import { shrinkUpload } from './shrink-upload';
import { mixedLoadBench } from './mixed-load';

// `npm run bench [-- --quick] [--json FILE] [--seed-size full|small] [--only a,b] [--rounds N] [--data-dir DIR] [--db sqlite|postgres] [--cluster]`
// Every figure is a ratio against a baseline measured in the same run, A/B interleaved.

const ALL: Benchmark[] = [
  apiFloor,
  feed,
  followingFeed,
  search,
  push,
  syncCost,
  upload,
  leaderboards,
  browserOffline,
  dexieBulk,
  liveUpdate,
  bundle,
  media,
  lighthouseBench,
  shrinkUpload,
  mixedLoadBench,
];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    'seed-size': { type: 'string' },
    only: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    'data-dir': { type: 'string' },
    db: { type: 'string', default: 'sqlite' },
    cluster: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

if (values.help) {
  console.log(`npm run bench -- [--quick] [--json FILE] [--seed-size full|small] [--only ${ALL.map((b) => b.id).join(',')}] [--rounds N] [--seconds S] [--data-dir DIR]
  --quick       2 rounds of 2 s and the small seed (a smoke run, a few minutes)
  --data-dir    reuse (or create and keep) a seeded DATA_DIR instead of a temp one (SQLite)
  --db postgres the server on PostgreSQL: a new local cluster (durable settings), seeded, stopped at the end
  --cluster     only the several-instances benchmarks (tests/bench/cluster.ts): PostgreSQL, the S3 gateway,
                2 web instances behind nginx against one instance alone; no seed
                (--only ${CLUSTER_BENCH_IDS.join(',')} picks among its rows)
  --only lighthouse  Lighthouse 12 (default mobile settings) on /, /login, /signup and /home signed in, median
                of 3 runs each (1 with --quick) in fresh browser profiles; the first loads' bytes compressed vs not
  --only following  the Following feed on PostgreSQL (with --db postgres): its own database seeded with a follow
                graph (full: 1,000,000 videos, 100,000 members following 200 each; --quick 20,000 / 2,000 / 50),
                p99 of a page with 10 connections against node:http + pg running the same statement
  --only search GET /api/search (people, videos, hashtags) on the --db engine: its own database seeded with
                searchable texts (full: 1,000,000 videos, 100,000 members; --quick 20,000 / 2,000), p99 with
                10 connections over a mix of queries against node:http running the same statements
  --only shrink a 1080p 60 s clip uploaded from the app in Chromium over a 1.6 Mbit/s uplink, shrunk to 720p
                first vs as it is: bytes and time to the server's acceptance (minutes; VIDI_CLIENT_DIST for a private build)`);
  process.exit(0);
}

/** The run's settings from the command line; --quick changes the defaults, explicit flags win. */
function settings() {
  const quick = values.quick;
  const seedSize = (values['seed-size'] ?? (quick ? 'small' : 'full')) as 'full' | 'small';
  if (!(seedSize in SEEDS)) throw new Error(`--seed-size must be full or small`);
  const only = values.only?.split(',').map((s) => s.trim());
  const known: readonly string[] = values.cluster ? CLUSTER_BENCH_IDS : ALL.map((b) => b.id);
  const unknown = only?.filter((id) => !known.includes(id));
  if (unknown?.length) throw new Error(`--only: unknown benchmark(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  if (values.db !== 'sqlite' && values.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
  const dialect: 'sqlite' | 'postgres' = values.db;
  return { dialect, quick, seedSize, only, rounds: Number(values.rounds ?? (quick ? 2 : 5)), seconds: Number(values.seconds ?? (quick ? 2 : 5)) };
}

async function runBenchmarks(ctx: BenchContext, only: string[] | undefined): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const b of ALL) {
    if (only && !only.includes(b.id)) continue;
    // Each benchmark starts from a quiet disk and a collected heap in this process (which also
    // runs the clients): after the push benchmark, collecting its garbage during the upload
    // benchmark slowed tus-js-client (our side's client) to 0.61x; with a gc() first, 1.1x.
    // `npm run bench` passes --expose-gc.
    execFileSync('sync');
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = performance.now();
    console.log(`> ${b.title}`);
    try {
      rows.push(...(await b.run(ctx)));
    } catch (e) {
      rows.push(failed(b.title, '', '', e));
      console.error(e);
    }
    console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  return rows;
}

async function main(): Promise<void> {
  const { dialect, quick, seedSize, only, rounds, seconds } = settings();
  const tmpDir = mkdtempSync(join(tmpdir(), 'vidi-bench-'));
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : join(tmpDir, 'data');
  const dbPath = join(dataDir, 'vidi.sqlite');
  const info = machine();
  console.log(`Vidi benchmarks: ${info.nproc} cores (${info.cpu}), ${info.memory_gib} GiB, Node ${info.node}, load ${info.loadavg_at_start.join(' ')}`);
  if (values.cluster) {
    console.log(`cluster: ${rounds} rounds per side, PostgreSQL + S3 gateway + 2 instances behind nginx vs one instance`);
    try {
      await runCluster({ quick, rounds, only, tmpDir, info });
    } finally {
      rmSync(tmpDir, { recursive: true, force: true });
    }
    return;
  }

  console.log(`rounds ${rounds} x ${seconds} s per side, seed ${seedSize}, DATA_DIR ${dataDir}, database ${dialect}`);

  let postgres: BenchPostgres | undefined;
  if (dialect === 'postgres') {
    postgres = await startBenchPostgres();
    console.log(`PostgreSQL cluster in ${postgres.cluster.dir} (port ${postgres.cluster.port})`);
  }
  try {
    await runOn({ dialect, quick, seedSize, only, rounds, seconds }, { tmpDir, dataDir, dbPath, info, postgres });
  } finally {
    await postgres?.stop();
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

async function runOn(
  { dialect, quick, seedSize, only, rounds, seconds }: ReturnType<typeof settings>,
  {
    tmpDir,
    dataDir,
    dbPath,
    info,
    postgres,
  }: { tmpDir: string; dataDir: string; dbPath: string; info: ReturnType<typeof machine>; postgres: BenchPostgres | undefined },
): Promise<void> {
  const databaseUrl = postgres?.url ?? dbPath;
  seedIfMissing(dataDir, dbPath, seedSize, postgres?.url);
  const viewerId = postgres ? await postgresViewer(postgres.url) : pickViewer(dbPath);
  const clientDist = privateClientCopy(tmpDir);

  const port = await freePort();
  // The push benchmark is one member pushing as fast as the server answers: a bot by the production
  // push limit (docs/sync.md), so the limit is lifted here; everything else runs as in production.
  const server = await startServer({
    dataDir,
    port,
    env: { LOG_LEVEL: 'error', CLIENT_DIST: clientDist, DATABASE_URL: databaseUrl, PUSH_RATE_BURST: '1000000', PUSH_RATE_PER_MINUTE: '1000000' },
  });
  const mint = await tokenMinter(dataDir, `http://127.0.0.1:${port}`);
  const ctx: BenchContext = {
    quick,
    rounds,
    seconds,
    seedSize,
    server,
    dataDir,
    dialect,
    databaseUrl,
    dbPath,
    tmpDir,
    clientDist,
    viewerId,
    token: (userId) => mint(userId ?? viewerId),
    log: (m) => console.log(`  ${m}`),
  };

  const started = performance.now();
  let rows: BenchRow[];
  try {
    rows = await runBenchmarks(ctx, only);
  } finally {
    await server.stop();
  }
  const total = (performance.now() - started) / 1000;
  console.log('');
  console.log(formatTable(rows));
  console.log(
    `\n${rows.filter((r) => r.pass === true).length} pass, ${rows.filter((r) => r.pass === false).length} fail, ` +
      `${rows.filter((r) => r.pass === null).length} report-only or not available; ${total.toFixed(0)} s`,
  );
  if (values.json) {
    writeResults(values.json, {
      machine: info,
      database: dialect,
      rounds,
      seconds,
      seed: { size: seedSize, ...SEEDS[seedSize] },
      seconds_total: Math.round(total),
      rows,
      markdown: markdownTable(rows),
    });
  }
}

/** `--cluster`: the rows of tests/bench/cluster.ts, printed and written as the other runs are. */
async function runCluster({
  quick,
  rounds,
  only,
  tmpDir,
  info,
}: {
  quick: boolean;
  rounds: number;
  only: string[] | undefined;
  tmpDir: string;
  info: ReturnType<typeof machine>;
}): Promise<void> {
  const started = performance.now();
  const rows = await runClusterBench({ quick, rounds, only, tmpDir, log: (m) => console.log(`  ${m}`) });
  // Media out of S3: proxied through /media (what ships) and presigned direct GETs, against disk.
  if (!only || only.includes('media-s3')) {
    console.log('  > Media from S3: proxied vs presigned vs disk');
    rows.push(...(await benchMediaServingS3({ rounds })));
  }
  const total = (performance.now() - started) / 1000;
  console.log(`\n${formatTable(rows)}\n\n${rows.length} rows, report only; ${total.toFixed(0)} s`);
  if (values.json) {
    writeResults(values.json, { machine: info, cluster: true, rounds, seconds_total: Math.round(total), rows, markdown: markdownTable(rows) });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
