import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest, openDatabase, type DbHandle } from '#db/connect';
import { rebuildScores, rebuildScoresIfMarked } from '../rewards/recompute';
import { hashPassword } from '../auth/password';
import { ensureMedia, type SeedMediaTarget } from './seed-media';
import { openMediaStore } from '../storage/open-media-store';
import { HELP, UsageError, parseSeedOptions, type SeedOptions } from './seed-options';
import { rng } from './seed-random';
import { seedSteps } from './seed-rows';
import { sqliteLoader, type SeedLoader } from './seed-sqlite';
import { postgresLoader } from './seed-postgres';

// `npm run seed -- --users N --videos N --likes N --comments N [--views N] [--follows-per-member N] [--password P]`
// Fills the server's database (DATABASE_URL, or the SQLite file in DATA_DIR) with synthetic
// members (with handles and, when asked, a follow graph: seed-follows.ts), videos, likes, comments and views for demos and benchmarks. The rows (seed-rows.ts) are
// the same on both engines; each engine loads them its fastest way (seed-sqlite.ts,
// seed-postgres.ts). Counters are fixed before the rows are written, so videos.*_count always
// equals the rows; `scores` is rebuilt from the rows by the rewards module.

export interface SeedSummary {
  users: number;
  videos: number;
  likes: number;
  comments: number;
  views: number;
  follows: number;
  scores: number;
  seconds: Record<string, number>;
  sampleEmail: string | null;
}

function loaderFor(handle: DbHandle): SeedLoader {
  return handle.engine.dialect === 'sqlite' ? sqliteLoader(handle.engine.sqlite) : postgresLoader(handle.engine.pool);
}

/**
 * Seeds the open, migrated database. Exported for tests and benchmarks that seed in-process; `media`
 * is a media folder or the server's store (seed-media.ts).
 */
export async function seedDatabase(handle: DbHandle, media: SeedMediaTarget, o: SeedOptions): Promise<SeedSummary> {
  const { db } = handle;
  // The data set depends on the seed and on what the database already holds: the same command on
  // the same database gives the same rows, and seeding again adds new members instead of colliding.
  const existing = await db
    .selectFrom('profiles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rand = rng((o.seed * 2654435761 + Number(existing.n) * 40503) >>> 0);
  const times: Record<string, number> = {};
  const timed = async (name: string, f: () => Promise<unknown>): Promise<void> => {
    const t0 = performance.now();
    await f();
    times[name] = Math.round(performance.now() - t0) / 1000;
  };
  const sample = await ensureMedia(media);
  const tag = Math.floor(rand() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  const passwordHash = o.password ? await hashPassword(o.password) : null;
  const existingTags = new Map((await db.selectFrom('hashtags').select('tag').execute()).map((r) => [r.tag, 0]));
  const steps = seedSteps(o, { rand, now: Date.now(), tag, media: sample, passwordHash, existingTags });

  const loader = loaderFor(handle);
  let scores = 0;
  await loader.begin();
  try {
    for (const step of steps) {
      await timed(step.name, async () => {
        for (const load of step.loads) await loader.load(load);
      });
    }
    // The tags an earlier run filed gain this run's videos (new tags were written with their counts).
    for (const [tag, added] of existingTags) {
      if (added)
        await db
          .updateTable('hashtags')
          .set((eb) => ({ videos_count: eb('videos_count', '+', added) }))
          .where('tag', '=', tag)
          .execute();
    }
    await timed('scores', async () => {
      scores = await db.transaction().execute((trx) => rebuildScores(trx));
    });
  } finally {
    await loader.end();
  }
  await timed('analyze', () => loader.analyze());

  return {
    users: o.users,
    videos: o.videos,
    likes: o.likes,
    comments: o.comments,
    views: o.views,
    follows: o.users * (o.followsPerMember ?? 0),
    scores,
    seconds: times,
    sampleEmail: o.users ? `seed-${tag}-0@seed.vidi.test` : null,
  };
}

/** Counters must equal the rows; a cheap whole-table check printed with the summary (both engines). */
export async function checkCounters(db: DbHandle['db']): Promise<string[]> {
  const problems: string[] = [];
  const pairs = [
    ['likes_count', 'likes'],
    ['comments_count', 'comments'],
    ['views_count', 'views'],
  ] as const;
  for (const [col, table] of pairs) {
    const { rows } = await sql<{ counters: number; rows: number }>`
      SELECT (SELECT coalesce(sum(${sql.ref(col)}), 0) FROM videos) AS counters,
             (SELECT count(*) FROM ${sql.table(table)} WHERE video_id IN (SELECT id FROM videos)) AS rows`.execute(db);
    const counters = Number(rows[0]?.counters);
    const found = Number(rows[0]?.rows);
    if (counters !== found) problems.push(`videos.${col} sums to ${counters} but ${table} has ${found} rows`);
  }
  for (const col of ['followers_count', 'following_count'] as const) {
    const { rows } = await sql<{ counters: number; rows: number }>`
      SELECT (SELECT coalesce(sum(${sql.ref(col)}), 0) FROM profiles) AS counters, (SELECT count(*) FROM follows) AS rows`.execute(db);
    const counters = Number(rows[0]?.counters);
    const found = Number(rows[0]?.rows);
    if (counters !== found) problems.push(`profiles.${col} sums to ${counters} but follows has ${found} rows`);
  }
  const { rows } = await sql<{ counters: number; rows: number }>`
    SELECT (SELECT coalesce(sum(videos_count), 0) FROM hashtags) AS counters, (SELECT count(*) FROM video_hashtags) AS rows`.execute(db);
  if (Number(rows[0]?.counters) !== Number(rows[0]?.rows))
    problems.push(`hashtags.videos_count sums to ${rows[0]?.counters} but video_hashtags has ${rows[0]?.rows} rows`);
  return problems;
}

/** The URL as printed: a PostgreSQL password stays out of terminals and logs. */
function withoutPassword(url: string): string {
  return url.replace(/^(\w+:\/\/[^:/@]+):[^@/]*@/, '$1:***@');
}

async function main(): Promise<void> {
  let o: SeedOptions;
  let config;
  try {
    o = parseSeedOptions(process.argv.slice(2));
    config = loadConfig();
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      console.error(e.message);
      if (e instanceof UsageError) console.error(HELP);
      process.exit(2);
    }
    throw e;
  }
  const started = performance.now();
  const handle = openDatabase(config.databaseUrl, config.database);
  // The server's own store, so the sample clip is where the server looks (DATA_DIR/media or S3).
  const store = openMediaStore(config);
  const localDir = store.kind === 'disk' ? join(config.mediaDir, 'seed') : join(config.dataDir, 'seed-media');
  try {
    await migrateToLatest(handle.db);
    // The seed rebuilds the counters itself: a migration's rebuild marker has nothing left to do.
    await rebuildScoresIfMarked(handle.db);
    const s = await seedDatabase(handle, { store, localDir }, o);
    const problems = await checkCounters(handle.db);
    const total = (performance.now() - started) / 1000;
    const rows = s.users + s.videos + s.likes + s.comments + s.views + s.follows;
    console.log(`Seeded ${withoutPassword(config.databaseUrl)}`);
    console.log(
      `  users ${s.users}, videos ${s.videos}, likes ${s.likes}, comments ${s.comments}, views ${s.views}, follows ${s.follows}, score rows ${s.scores}`,
    );
    console.log(
      `  seconds: ${Object.entries(s.seconds)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}; total ${total.toFixed(1)} (${Math.round(rows / total)} rows/s)`,
    );
    if (s.sampleEmail) console.log(`  sample member: ${s.sampleEmail}${o.password ? ' (password as given)' : ' (no password; pass --password to log in)'}`);
    console.log(problems.length ? `  COUNTER MISMATCH:\n    ${problems.join('\n    ')}` : '  counters match the rows');
    if (problems.length) process.exitCode = 1;
  } finally {
    await store.close();
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
