import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DbHandle } from '#db/connect';
import { checkCounters, seedDatabase } from '#server/cli/seed';
import { hashtagsOf } from '#sync/protocol/hashtags';
import { testDatabaseEnv, testDialect } from '../helpers/test-database';

// The seed's texts are what the search benchmark searches (tests/bench/search.ts): every seeded
// (ready) video filed under exactly the tags hashtagsOf() reads in its texts, the tags' counts equal
// to their rows, also when a second run adds videos to tags the first one filed, and the words found
// by each engine's full-text index (SQLite's FTS5 tables are filled by their triggers).

const SMALL = { users: 60, videos: 400, likes: 200, comments: 0, views: 0, password: undefined, seed: 5 };

describe(`the seed's searchable texts on ${testDialect}`, () => {
  let dataDir: string;
  let handle: DbHandle;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-seed-search-'));
    const env = await testDatabaseEnv(dataDir);
    handle = openDatabase(env.DATABASE_URL ?? join(dataDir, 'vidi.sqlite'));
    await migrateToLatest(handle.db);
    await seedDatabase(handle, join(dataDir, 'media'), SMALL);
    await seedDatabase(handle, join(dataDir, 'media'), { ...SMALL, videos: 100, seed: 6 });
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('files every video under the tags of its texts, with exact counts across two runs', async () => {
    const videos = await handle.db.selectFrom('videos').select(['id', 'title', 'description', 'created_at', 'likes_count']).execute();
    const filed = await handle.db.selectFrom('video_hashtags').select(['tag', 'video_id', 'created_at']).execute();
    const top = await handle.db.selectFrom('video_hashtags_top').select(['tag', 'video_id', 'created_at', 'likes_count']).execute();
    const expected = videos.flatMap((v) => hashtagsOf(v.title, v.description).map((tag) => `${tag} ${v.id} ${v.created_at}`));
    expect(expected.length).toBeGreaterThan(200);
    expect(filed.map((r) => `${r.tag} ${r.video_id} ${r.created_at}`).sort()).toEqual(expected.sort());
    // The "top" order's rows: the same, each with its video's likes_count.
    const likes = new Map(videos.map((v) => [v.id, v.likes_count]));
    expect(top.map((r) => `${r.tag} ${r.video_id} ${r.created_at} ${r.likes_count}`).sort()).toEqual(
      filed.map((r) => `${r.tag} ${r.video_id} ${r.created_at} ${likes.get(r.video_id)}`).sort(),
    );
    expect(await checkCounters(handle.db)).toEqual([]);
    const counts = await handle.db.selectFrom('hashtags').select(['tag', 'videos_count']).where('tag', '=', 'love').executeTakeFirstOrThrow();
    expect(Number(counts.videos_count)).toBe(filed.filter((r) => r.tag === 'love').length);
  });

  it('gives members names in several scripts, found without their accents', async () => {
    const names = (await handle.db.selectFrom('profiles').select('name').execute()).map((p) => p.name);
    expect(names.some((n) => n.startsWith('José '))).toBe(true);
    expect(names.some((n) => /\p{Script=Devanagari}/u.test(n))).toBe(true);
    const found =
      testDialect === 'sqlite'
        ? await sql<{ name: string }>`SELECT p.name FROM people_fts JOIN profiles p ON p.rowid = people_fts.rowid WHERE people_fts MATCH 'jose'`.execute(
            handle.db,
          )
        : await sql<{ name: string }>`SELECT name FROM profiles WHERE vidi_fold(name) LIKE 'jose %'`.execute(handle.db);
    expect(found.rows.length).toBe(names.filter((n) => n.startsWith('José ')).length);
  });

  it("puts the vocabulary's common and Hindi words in the videos' full-text index", async () => {
    const count = async (word: string) => {
      const { rows } =
        testDialect === 'sqlite'
          ? await sql<{ n: number }>`SELECT count(*) AS n FROM videos_fts WHERE videos_fts MATCH ${`"${word}"`}`.execute(handle.db)
          : await sql<{ n: number }>`SELECT count(*) AS n FROM videos WHERE search_vector @@ to_tsquery('simple', vidi_fold(${`'${word}'`}))`.execute(
              handle.db,
            );
      return Number(rows[0]!.n);
    };
    // "love" is the most frequent word: in most videos; a Hindi word in a few.
    expect(await count('love')).toBeGreaterThan(250);
    expect(await count('love')).toBeLessThan(500);
    expect(await count('पानी')).toBeGreaterThan(0);
  });
});
