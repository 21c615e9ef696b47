import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase } from '#tests/support/postgres-cluster';
import { PROJECT_ROOT, startServer } from '#tests/helpers/server-process';
import { migrateToLatest, openDatabase } from '#db/connect';
import { ratioRow, unavailable } from './lib/result';
import { assertClean, interleaved, load, type LoadResult } from './lib/load';
import { freePort, startBaseline } from './lib/processes';
import { probe, tokenMinter, type Benchmark, type BenchContext } from './lib/context';

/**
 * The Following feed's first page (GET /api/feed/following: fan-out on read, a LATERAL top-N per
 * followed creator; docs/decisions/0022-following-feed-on-read.md) on PostgreSQL, 10 connections
 * spread over 20 members, against node:http + pg running the same statement for the same members
 * (tests/bench/baselines/raw-server.ts, following-pg). Its own database in the benchmark's cluster,
 * seeded with a follow graph: the full size is the (1,000,000 videos, 100,000 members
 * following 200 each); --quick (the small seed) a smoke run of the same code.
 */
export const FOLLOWING_SEEDS = {
  full: { users: 100_000, videos: 1_000_000, follows: 200 },
  small: { users: 2_000, videos: 20_000, follows: 50 },
} as const;

const NAME = 'Following feed: p99 of a page (10 conns)';
const TARGET = '<= 50 ms';
const READERS = 20;
const PATH = '/api/feed/following';

/** A new database beside the benchmark's, migrated and seeded with the follow graph. */
async function seededDatabase(ctx: BenchContext, dataDir: string): Promise<string> {
  const url = new URL(ctx.databaseUrl);
  const admin = new URL(ctx.databaseUrl);
  admin.pathname = '/postgres';
  const name = 'vidi_following';
  await createDatabase(admin.toString(), name);
  url.pathname = `/${name}`;
  const handle = openDatabase(url.toString());
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  const n = FOLLOWING_SEEDS[ctx.seedSize];
  const args = ['--users', n.users, '--videos', n.videos, '--likes', 0, '--comments', 0, '--views', 0, '--follows-per-member', n.follows].map(String);
  ctx.log(`seeding ${name}: ${args.join(' ')}`);
  mkdirSync(dataDir, { recursive: true });
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/seed.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: url.toString() },
    stdio: 'inherit',
  });
  return url.toString();
}

async function readers(url: string): Promise<string[]> {
  const { db, close } = openDatabase(url);
  try {
    return (await db.selectFrom('profiles').select('id').where('following_count', '>', 0).orderBy('id').limit(READERS).execute()).map((r) => r.id);
  } finally {
    await close();
  }
}

export const followingFeed: Benchmark = {
  id: 'following',
  title: 'Following feed',
  async run(ctx) {
    if (ctx.dialect !== 'postgres') return [unavailable(NAME, 'ms', TARGET, 'PostgreSQL only: npm run bench -- --db postgres --only following')];
    const dataDir = join(ctx.tmpDir, 'following');
    const url = await seededDatabase(ctx, dataDir);
    const members = await readers(url);
    const server = await startServer({ dataDir, port: await freePort(), env: { LOG_LEVEL: 'error', CLIENT_DIST: ctx.clientDist, DATABASE_URL: url } });
    const base = await startBaseline('following-pg', { BENCH_DATABASE_URL: url });
    try {
      const mint = await tokenMinter(dataDir, server.url);
      const auth = await Promise.all(members.map(async (m) => ({ authorization: `Bearer ${await mint(m)}` })));
      // Same pages on both sides, or the comparison means nothing.
      const ids = (text: string) => (JSON.parse(text) as { items: Array<{ id: string }> }).items.map((i) => i.id).join(',');
      for (const [k, m] of members.entries()) {
        const ours = await probe(`${server.url}${PATH}`, { headers: auth[k]! });
        if (ours.status !== 200) throw new Error(`GET ${PATH} answered ${ours.status}`);
        if (ids(ours.text) !== ids((await probe(`${base.url}${PATH}?viewer=${m}`)).text)) throw new Error('the baseline and the API returned different pages');
      }
      const run = (target: string, requests: Array<{ method: 'GET'; path: string; headers?: Record<string, string> }>) => async (): Promise<LoadResult> => {
        const r = await load({ url: target, seconds: ctx.seconds, connections: 10, requests });
        assertClean(target, r);
        return r;
      };
      const s = await interleaved(
        ctx.rounds,
        run(
          server.url,
          auth.map((headers) => ({ method: 'GET', path: PATH, headers })),
        ),
        run(
          base.url,
          members.map((m) => ({ method: 'GET', path: `${PATH}?viewer=${m}` })),
        ),
      );
      const n = FOLLOWING_SEEDS[ctx.seedSize];
      const notes = `${n.videos} videos, ${n.users} members following ${n.follows} each; ${READERS} readers`;
      return [
        ratioRow(
          { name: NAME, unit: 'ms', direction: 'lower', absolute: { max: 50, label: TARGET }, notes },
          s.ours.map((r) => r.p99),
          s.base.map((r) => r.p99),
        ),
        ratioRow(
          { name: 'Following feed: req/s (10 conns)', unit: 'req/s', direction: 'higher', notes },
          s.ours.map((r) => r.rps),
          s.base.map((r) => r.rps),
        ),
      ];
    } finally {
      await base.stop();
      await server.stop();
    }
  },
};
