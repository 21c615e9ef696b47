import { pathToFileURL } from 'node:url';
import type SQLite from 'better-sqlite3';
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest, openSqlite as openDatabase, sqlitePathFromUrl } from '#db/connect';
import { rebuildScores, rebuildScoresIfMarked } from '../rewards/recompute';
import { hashPassword } from '../auth/password';
import { ensureMedia } from './seed-media';
import { HELP, UsageError, parseSeedOptions, type SeedOptions } from './seed-options';
import { rng, sortedIds, spread, pickDistinct } from './seed-random';

// `npm run seed -- --users N --videos N --likes N --comments N [--views N] [--password P]`
// Fills DATA_DIR's database with synthetic members, videos, likes, comments and views for demos and
// benchmarks. Speed comes from prepared statements in one transaction per table, rows inserted in
// primary-key order, and secondary indexes dropped during the load and rebuilt afterwards (a sort
// instead of a million random B-tree inserts). Counters are fixed before the rows are written, so
// videos.*_count always equals the rows; `scores` is rebuilt from the rows by the rewards module.

/** Drops the table's secondary indexes while `load` runs and rebuilds them after. */
function withoutIndexes(sqlite: SQLite.Database, table: string, load: () => void): void {
  const indexes = sqlite
    .prepare<[string], { name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`)
    .all(table);
  for (const ix of indexes) sqlite.exec(`DROP INDEX "${ix.name}"`);
  try {
    load();
  } finally {
    for (const ix of indexes) sqlite.exec(ix.sql);
  }
}

const FIRST = ['Asha', 'Ravi', 'Meera', 'Arjun', 'Priya', 'Kiran', 'Neha', 'Vikram', 'Anita', 'Rahul', 'Divya', 'Sanjay', 'Lena', 'Omar', 'Mia', 'Noah'];
const WORDS = [
  'sunset',
  'street',
  'dance',
  'recipe',
  'rain',
  'train',
  'market',
  'beach',
  'cat',
  'skate',
  'guitar',
  'festival',
  'garden',
  'city',
  'mountain',
  'coffee',
];
const DAY = 24 * 60 * 60 * 1000;

export interface SeedSummary {
  users: number;
  videos: number;
  likes: number;
  comments: number;
  views: number;
  scores: number;
  seconds: Record<string, number>;
  sampleEmail: string | null;
}

/** Seeds the open database. Exported for tests and benchmarks that seed in-process. */
export async function seedDatabase(handle: ReturnType<typeof openDatabase>, mediaDir: string, o: SeedOptions): Promise<SeedSummary> {
  const { db } = handle;
  const { sqlite } = handle.engine;
  // The data set depends on the seed and on what the database already holds: the same command on
  // the same database gives the same rows, and seeding again adds new members instead of colliding.
  const existing = Number(sqlite.prepare('SELECT count(*) FROM profiles').pluck().get());
  const rand = rng((o.seed * 2654435761 + existing * 40503) >>> 0);
  const times: Record<string, number> = {};
  const timed = <T>(name: string, f: () => T): T => {
    const t0 = performance.now();
    const r = f();
    times[name] = Math.round(performance.now() - t0) / 1000;
    return r;
  };
  const media = ensureMedia(mediaDir);
  const now = Date.now();
  const tag = Math.floor(rand() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  const passwordHash = o.password ? await hashPassword(o.password) : null;

  // Rollback journal + no fsync while loading: pages appended to the file need no journal copy,
  // so a crash leaves the database as it was. WAL (the server's mode) is restored at the end.
  const switched = String(sqlite.pragma('journal_mode = DELETE', { simple: true })) === 'delete';
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('foreign_keys = OFF');
  sqlite.pragma('cache_size = -262144');
  sqlite.pragma('temp_store = MEMORY');

  const userIds = sortedIds(o.users, rand);
  const videoIds = sortedIds(o.videos, rand);
  const likesPer = spread(o.likes, o.videos, o.users, rand);
  const viewsPer = spread(o.views, o.videos, o.users, rand);
  const commentsPer = spread(o.comments, o.videos, Number.MAX_SAFE_INTEGER, rand);
  const videoOwner = new Uint32Array(o.videos);
  const videoAt = new Float64Array(o.videos);
  const userAt = now - 120 * DAY;

  timed('users', () =>
    withoutIndexes(sqlite, 'profiles', () => {
      const ins = sqlite.prepare(
        `INSERT INTO profiles (id, email, name, is_admin, is_active, account_status, email_verified_at, created_at, updated_at)
         VALUES (?, ?, ?, 0, 1, 'active', ?, ?, ?)`,
      );
      const cred = sqlite.prepare('INSERT INTO credentials (user_id, password_hash, updated_at) VALUES (?, ?, ?)');
      sqlite.transaction(() => {
        userIds.forEach((id, i) => {
          const at = userAt + Math.floor(rand() * DAY);
          ins.run(id, `seed-${tag}-${i}@seed.vidi.test`, `${FIRST[i % FIRST.length]} ${i}`, at, at, at);
          if (passwordHash) cred.run(id, passwordHash, at);
        });
      })();
    }),
  );

  timed('videos', () =>
    withoutIndexes(sqlite, 'videos', () => {
      const ins = sqlite.prepare(
        `INSERT INTO videos (id, user_id, title, description, file_key, mime_type, size_bytes, duration_ms, sha256, poster_key,
           created_at, likes_count, comments_count, shares_count, views_count)
         VALUES (?, ?, ?, ?, ?, 'video/mp4', ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      );
      sqlite.transaction(() => {
        for (let j = 0; j < o.videos; j++) {
          videoOwner[j] = Math.floor(rand() * o.users);
          videoAt[j] = now - 90 * DAY + Math.floor(rand() * 90 * DAY);
          const w1 = WORDS[Math.floor(rand() * WORDS.length)]!;
          const w2 = WORDS[Math.floor(rand() * WORDS.length)]!;
          ins.run(
            videoIds[j],
            userIds[videoOwner[j]!],
            `${w1} ${w2} #${j}`,
            `A ${w1} clip with some ${w2}.`,
            media.fileKey,
            media.size,
            media.durationMs,
            media.sha256,
            media.posterKey,
            videoAt[j],
            likesPer[j],
            commentsPer[j],
            viewsPer[j],
          );
        }
      })();
    }),
  );

  const perm = new Uint32Array(o.users).map((_, i) => i);
  const afterVideo = (j: number) => videoAt[j]! + Math.floor(rand() * (now - videoAt[j]!));
  const pairRows = (table: 'likes' | 'views', per: Uint32Array) =>
    withoutIndexes(sqlite, table, () => {
      const ins =
        table === 'likes'
          ? sqlite.prepare('INSERT INTO likes (video_id, user_id, created_at) VALUES (?, ?, ?)')
          : sqlite.prepare('INSERT INTO views (video_id, user_id, watched_ms, created_at) VALUES (?, ?, ?, ?)');
      sqlite.transaction(() => {
        for (let j = 0; j < o.videos; j++) {
          for (const u of pickDistinct(perm, per[j]!, rand)) {
            if (table === 'likes') ins.run(videoIds[j], userIds[u], afterVideo(j));
            else ins.run(videoIds[j], userIds[u], media.durationMs, afterVideo(j));
          }
        }
      })();
    });
  timed('likes', () => pairRows('likes', likesPer));
  timed('views', () => pairRows('views', viewsPer));

  timed('comments', () =>
    withoutIndexes(sqlite, 'comments', () => {
      const ids = sortedIds(o.comments, rand);
      const ins = sqlite.prepare('INSERT INTO comments (id, video_id, user_id, content, created_at) VALUES (?, ?, ?, ?, ?)');
      let k = 0;
      sqlite.transaction(() => {
        for (let j = 0; j < o.videos; j++) {
          for (let c = 0; c < commentsPer[j]!; c++) {
            const w = WORDS[Math.floor(rand() * WORDS.length)]!;
            ins.run(ids[k++], videoIds[j], userIds[Math.floor(rand() * o.users)], `Love the ${w}!`, afterVideo(j));
          }
        }
      })();
    }),
  );

  const t0 = performance.now();
  const scores = await db.transaction().execute((trx) => rebuildScores(trx));
  times.scores = Math.round(performance.now() - t0) / 1000;

  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = FULL');
  if (switched) sqlite.pragma('journal_mode = WAL');
  timed('analyze', () => sqlite.exec('ANALYZE'));

  return {
    users: o.users,
    videos: o.videos,
    likes: o.likes,
    comments: o.comments,
    views: o.views,
    scores,
    seconds: times,
    sampleEmail: o.users ? `seed-${tag}-0@seed.vidi.test` : null,
  };
}

/** Counters must equal the rows; a cheap whole-table check printed with the summary. */
function checkCounters(sqlite: SQLite.Database): string[] {
  const problems: string[] = [];
  const q = (s: string) => Number(sqlite.prepare(s).pluck().get());
  const pairs: Array<[string, string]> = [
    ['likes_count', 'likes'],
    ['comments_count', 'comments'],
    ['views_count', 'views'],
  ];
  for (const [col, table] of pairs) {
    const counters = q(`SELECT coalesce(sum(${col}), 0) FROM videos`);
    const rows = q(`SELECT count(*) FROM ${table} WHERE video_id IN (SELECT id FROM videos)`);
    if (counters !== rows) problems.push(`videos.${col} sums to ${counters} but ${table} has ${rows} rows`);
  }
  return problems;
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
  const handle = openDatabase(sqlitePathFromUrl(config.databaseUrl));
  try {
    await migrateToLatest(handle.db);
    // The seed rebuilds the counters itself: a migration's rebuild marker has nothing left to do.
    await rebuildScoresIfMarked(handle.db);
    const s = await seedDatabase(handle, config.mediaDir, o);
    const problems = checkCounters(handle.engine.sqlite);
    const total = (performance.now() - started) / 1000;
    const rows = s.users + s.videos + s.likes + s.comments + s.views;
    console.log(`Seeded ${config.databaseUrl}`);
    console.log(`  users ${s.users}, videos ${s.videos}, likes ${s.likes}, comments ${s.comments}, views ${s.views}, score rows ${s.scores}`);
    console.log(
      `  seconds: ${Object.entries(s.seconds)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}; total ${total.toFixed(1)} (${Math.round(rows / total)} rows/s)`,
    );
    if (s.sampleEmail) console.log(`  sample member: ${s.sampleEmail}${o.password ? ' (password as given)' : ' (no password; pass --password to log in)'}`);
    console.log(problems.length ? `  COUNTER MISMATCH:\n    ${problems.join('\n    ')}` : '  counters match the rows');
    if (problems.length) process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
