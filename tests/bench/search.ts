import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { createDatabase } from '#tests/support/postgres-cluster';
import { PROJECT_ROOT, startServer } from '#tests/helpers/server-process';
import { migrateToLatest, openDatabase } from '#db/connect';
import { HINDI, TAGS, VOCABULARY } from '#server/cli/seed-words';
import { ratioRow } from './lib/result';
import { assertClean, interleaved, load, type LoadResult } from './lib/load';
import { freePort, startBaseline } from './lib/processes';
import { probe, tokenMinter, type Benchmark, type BenchContext } from './lib/context';
import { median } from './lib/stats';

/**
 * GET /api/search (server/discovery/search-*.ts) for people, videos and hashtags, on the engine of
 * the run (`--db`), 10 connections each request another member's token and another query of a mix
 * drawn from the seed's vocabulary (server/cli/seed-words.ts), against node:http running the same
 * statements with plain better-sqlite3 or pg (tests/bench/baselines/search.ts), pages checked equal
 * first. Its own database, seeded with searchable texts: the full size is the issue's (1,000,000
 * videos, 100,000 members); --quick (the small seed) a smoke run of the same code.
 */
export const SEARCH_SEEDS = {
  full: { users: 100_000, videos: 1_000_000, likes: 1_000_000, follows: 10 },
  small: { users: 2_000, videos: 20_000, likes: 20_000, follows: 5 },
} as const;

const TARGET = '<= 50 ms';
const READERS = 20;
const PATH = '/api/search';

/**
 * What members type, per type: a common and a rare word, a 2-3 letter prefix as one types, a Hindi
 * word, an accented name typed without its accents, a handle prefix, a tag prefix.
 */
export const SEARCH_MIX = {
  people: ['jose', 'zoe', 'pr', 'pri', 'meera', 'meera_', 'प्रिया', 'francois', 'kwame ok', 'sharma'],
  videos: [VOCABULARY[0]!, VOCABULARY[2900]!, 'tr', 'fes', HINDI[4]!, 'jose', 'street food', 'sunset bea', VOCABULARY[1200]!, 'chef'],
  hashtags: ['l', 'lo', 'tra', TAGS[0]!, TAGS[2500]!, 'बा', 'jos', 'zz', 'st', 'm'],
} as const;
type SearchType = keyof typeof SEARCH_MIX;

/** Seeds a database of its own: PostgreSQL, one more in the run's cluster; SQLite, a file in its own DATA_DIR. */
async function seededDatabase(ctx: BenchContext, dataDir: string): Promise<{ url: string; seconds: number }> {
  let url = join(dataDir, 'vidi.sqlite');
  if (ctx.dialect === 'postgres') {
    const pgUrl = new URL(ctx.databaseUrl);
    const admin = new URL(ctx.databaseUrl);
    admin.pathname = '/postgres';
    await createDatabase(admin.toString(), 'vidi_search');
    pgUrl.pathname = '/vidi_search';
    url = pgUrl.toString();
    const handle = openDatabase(url);
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
  }
  const n = SEARCH_SEEDS[ctx.seedSize];
  const args = ['--users', n.users, '--videos', n.videos, '--likes', n.likes, '--comments', 0, '--views', 0, '--follows-per-member', n.follows].map(String);
  ctx.log(`seeding the search database: ${args.join(' ')}`);
  mkdirSync(dataDir, { recursive: true });
  const t0 = performance.now();
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/seed.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: url },
    stdio: 'inherit',
  });
  return { url, seconds: Math.round((performance.now() - t0) / 1000) };
}

async function readers(url: string): Promise<string[]> {
  const { db, close } = openDatabase(url);
  try {
    return (await db.selectFrom('profiles').select('id').orderBy('id').limit(READERS).execute()).map((r) => r.id);
  } finally {
    await close();
  }
}

const query = (type: SearchType, q: string) => `${PATH}?type=${type}&q=${encodeURIComponent(q)}`;

/** Every query of the mix for every reader: the API's and the baseline's pages must be the same. */
async function checkSamePages(serverUrl: string, baseUrl: string, members: string[], auth: Array<Record<string, string>>): Promise<void> {
  for (const type of Object.keys(SEARCH_MIX) as SearchType[]) {
    for (const [i, q] of SEARCH_MIX[type].entries()) {
      const k = i % members.length;
      const ours = await probe(`${serverUrl}${query(type, q)}`, { headers: auth[k]! });
      if (ours.status !== 200) throw new Error(`GET ${query(type, q)} answered ${ours.status}: ${ours.text.slice(0, 200)}`);
      const base = await probe(`${baseUrl}${query(type, q)}&viewer=${members[k]}`);
      if (!isDeepStrictEqual(JSON.parse(ours.text), JSON.parse(base.text)))
        throw new Error(`the baseline and the API returned different pages for ${type} "${q}"`);
    }
  }
}

/**
 * Each query of the mix alone, the median of 3 (ours, then the baseline's): which query a p99 comes
 * from, printed with the run (docs/benchmarks.md, "Search").
 */
async function timeEachQuery(ctx: BenchContext, serverUrl: string, baseUrl: string, member: string, auth: Record<string, string>): Promise<void> {
  const time = async (url: string, init: RequestInit) => {
    const ms: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await probe(url, init);
      ms.push(performance.now() - t0);
    }
    return median(ms).toFixed(1);
  };
  for (const type of Object.keys(SEARCH_MIX) as SearchType[]) {
    const each = [];
    for (const q of SEARCH_MIX[type])
      each.push(`"${q}" ${await time(`${serverUrl}${query(type, q)}`, { headers: auth })}/${await time(`${baseUrl}${query(type, q)}&viewer=${member}`, {})}`);
    ctx.log(`${type}, ms alone (ours/baseline): ${each.join(', ')}`);
  }
}

/** The requests of one type: reader k % READERS asks query k % the mix's length, so each connection cycles through all pairs. */
function requests(type: SearchType, members: string[], auth: Array<Record<string, string>> | null) {
  const mix = SEARCH_MIX[type];
  return Array.from({ length: members.length * mix.length }, (_, k) => {
    const m = k % members.length;
    const q = mix[Math.floor(k / members.length)]!;
    return auth
      ? { method: 'GET' as const, path: query(type, q), headers: auth[m]! }
      : { method: 'GET' as const, path: `${query(type, q)}&viewer=${members[m]}` };
  });
}

export const search: Benchmark = {
  id: 'search',
  title: 'Search',
  async run(ctx) {
    const dataDir = join(ctx.tmpDir, 'search');
    const { url, seconds: seedSeconds } = await seededDatabase(ctx, dataDir);
    const members = await readers(url);
    const server = await startServer({ dataDir, port: await freePort(), env: { LOG_LEVEL: 'error', CLIENT_DIST: ctx.clientDist, DATABASE_URL: url } });
    const base = await startBaseline(
      ctx.dialect === 'postgres' ? 'search-pg' : 'search-sqlite',
      ctx.dialect === 'postgres' ? { BENCH_DATABASE_URL: url } : { BENCH_DB: url },
    );
    try {
      const mint = await tokenMinter(dataDir, server.url);
      const auth = await Promise.all(members.map(async (m) => ({ authorization: `Bearer ${await mint(m)}` })));
      await checkSamePages(server.url, base.url, members, auth);
      await timeEachQuery(ctx, server.url, base.url, members[0]!, auth[0]!);
      const run = (target: string, reqs: ReturnType<typeof requests>) => async (): Promise<LoadResult> => {
        const r = await load({ url: target, seconds: ctx.seconds, connections: 10, requests: reqs });
        assertClean(target, r);
        return r;
      };
      const n = SEARCH_SEEDS[ctx.seedSize];
      const rows = [];
      for (const type of Object.keys(SEARCH_MIX) as SearchType[]) {
        const s = await interleaved(ctx.rounds, run(server.url, requests(type, members, auth)), run(base.url, requests(type, members, null)));
        const p50 = (xs: LoadResult[]) => Math.round(median(xs.map((r) => r.p50)));
        const notes =
          `${ctx.dialect}; ${n.videos} videos, ${n.users} members (seeded in ${seedSeconds} s); ${SEARCH_MIX[type].length} queries x ${READERS} readers; ` +
          `p50 ${p50(s.ours)} vs ${p50(s.base)} ms`;
        rows.push(
          ratioRow(
            { name: `Search ${type}: p99 (10 conns)`, unit: 'ms', direction: 'lower', absolute: { max: 50, label: TARGET }, notes },
            s.ours.map((r) => r.p99),
            s.base.map((r) => r.p99),
          ),
        );
      }
      return rows;
    } finally {
      await base.stop();
      await server.stop();
    }
  },
};
