import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DbHandle } from '#db/connect';
import { checkCounters, seedDatabase } from '#server/cli/seed';
import { testDatabaseEnv, testDialect } from '../helpers/test-database';
import { handleProblem } from '#sync/protocol/handles';

// `npm run seed` on the engine of this vitest project (a SQLite file, or a PostgreSQL database):
// each engine has its own bulk loader (server/cli/seed-sqlite.ts, seed-postgres.ts), and both must
// leave counters equal to the rows, the indexes and foreign keys they drop for the load back in
// place, and the scores rebuilt.

const SMALL = { users: 40, videos: 120, likes: 900, comments: 300, views: 700, password: undefined, seed: 3 };

const countOf = async (handle: DbHandle, table: 'profiles' | 'videos' | 'likes' | 'comments' | 'views' | 'scores' | 'follows'): Promise<number> => {
  const row = await handle.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** The engine's secondary indexes and foreign keys, by name: the loaders drop them during a load. */
async function schemaObjects(handle: DbHandle): Promise<string[]> {
  if (handle.engine.dialect === 'sqlite') {
    const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name`.execute(handle.db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`
    SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT conname FROM pg_constraint WHERE contype = 'f' ORDER BY 1`.execute(handle.db);
  return rows.map((r) => r.name);
}

describe(`npm run seed on ${testDialect}`, () => {
  let dataDir: string;
  let handle: DbHandle;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-seed-'));
    const env = await testDatabaseEnv(dataDir);
    handle = openDatabase(env.DATABASE_URL ?? join(dataDir, 'vidi.sqlite'));
    await migrateToLatest(handle.db);
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads the rows asked for, with counters that match them and the schema as it was', async () => {
    const before = await schemaObjects(handle);
    const summary = await seedDatabase(handle, join(dataDir, 'media'), SMALL);
    expect(await checkCounters(handle.db)).toEqual([]);
    expect({
      profiles: await countOf(handle, 'profiles'),
      videos: await countOf(handle, 'videos'),
      likes: await countOf(handle, 'likes'),
      comments: await countOf(handle, 'comments'),
      views: await countOf(handle, 'views'),
    }).toEqual({ profiles: 40, videos: 120, likes: 900, comments: 300, views: 700 });
    expect(summary.scores).toBe(await countOf(handle, 'scores'));
    expect(summary.scores).toBeGreaterThan(0);
    expect(await schemaObjects(handle)).toEqual(before);
    // Every video points at the one sample clip, and its owner is a seeded member.
    const orphans = await handle.db
      .selectFrom('videos')
      .leftJoin('profiles', 'profiles.id', 'videos.user_id')
      .select('videos.id')
      .where('profiles.id', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
  }, 120_000);

  it('adds new members on a second run instead of colliding, and counters still match', async () => {
    await seedDatabase(handle, join(dataDir, 'media'), { ...SMALL, likes: 50, comments: 20, views: 50, videos: 10, users: 5 });
    expect(await countOf(handle, 'profiles')).toBe(45);
    expect(await countOf(handle, 'videos')).toBe(130);
    expect(await checkCounters(handle.db)).toEqual([]);
  }, 120_000);

  it('makes a follow graph with --follows-per-member: valid unique handles, counters equal to the rows', async () => {
    const before = await schemaObjects(handle);
    const profilesBefore = await countOf(handle, 'profiles');
    await seedDatabase(handle, join(dataDir, 'media'), { ...SMALL, users: 30, videos: 30, likes: 0, comments: 0, views: 0, followsPerMember: 7 });
    expect(await countOf(handle, 'profiles')).toBe(profilesBefore + 30);
    const follows = await handle.db.selectFrom('follows').select(['follower_id', 'followee_id']).execute();
    expect(follows.length).toBe(30 * 7);
    expect(follows.filter((f) => f.follower_id === f.followee_id)).toEqual([]);
    expect(await checkCounters(handle.db)).toEqual([]);
    const followed = await handle.db.selectFrom('profiles').select(['following_count']).where('following_count', '>', 0).execute();
    expect(followed.map((p) => Number(p.following_count))).toEqual(new Array(30).fill(7));
    const handles = (await handle.db.selectFrom('profiles').select('handle').execute()).map((p) => p.handle);
    expect(handles.filter((h) => handleProblem(h) !== null)).toEqual([]);
    expect(new Set(handles).size).toBe(handles.length);
    expect(await schemaObjects(handle)).toEqual(before);
  }, 120_000);

  it('reports a counter that disagrees with its rows', async () => {
    const video = await handle.db.selectFrom('videos').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
    await handle.db
      .updateTable('videos')
      .set((eb) => ({ likes_count: eb('likes_count', '+', 1) }))
      .where('id', '=', video.id)
      .execute();
    expect(await checkCounters(handle.db)).toEqual([expect.stringContaining('videos.likes_count sums to')]);
  });
});
