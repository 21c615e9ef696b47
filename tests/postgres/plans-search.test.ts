import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import { openDatabase, type DbHandle } from '#db/connect';
import { videoSearchQuery } from '#server/discovery/search-videos';
import { exactHandleQuery, handlePrefixQuery, nameQuery } from '#server/discovery/search-people';
import { hashtagSearchQuery } from '#server/discovery/search-hashtags';
import { searchWords } from '#server/discovery/search-words';
import { testDatabaseEnv, VOLUME_SEEDING_POSTGRES } from '../helpers/test-database';
import { bulkLoad, customPlan as runPlan, genericPlan as keptPlan, seedSafety, type PlanNode } from './pg-plans';

// The search statements on PostgreSQL (server/discovery/search-*.ts) on a seeded, analysed
// database: videos by the GIN index videos_search for a rare word, or by walking videos_feed from
// the newest for a word in half of all videos, either way stopping once the tier's page is full or at
// the bound (never every match sorted); names by the index of their words profiles_name_words;
// handles and tags by a range of profiles_handle and of the hashtags primary key. Video and name
// searches run with a plan for their own words (plannedForItsWords), so their custom plans are the
// ones that matter; the handle and tag ranges are checked as a prepared statement keeps them too (generic).

const describePlan = (nodes: PlanNode[]) => nodes.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name']].filter(Boolean).join(' ')).join(' | ');

const MEMBERS = 20_000;
const VIDEOS = 120_000;
const id = (i: number) => `u${String(i).padStart(8, '0')}`;
const VIEWER = id(1);

describe('search plans on PostgreSQL', () => {
  let handle: DbHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-plans-search-'));
    const { DATABASE_URL } = await testDatabaseEnv(dataDir);
    handle = openDatabase(DATABASE_URL!, VOLUME_SEEDING_POSTGRES);
    const { db } = handle;
    // Names of a first name out of ten (José in one of ten) and a rare surname (five members each).
    await sql`INSERT INTO profiles (id, email, name, handle, created_at, updated_at, followers_count)
      SELECT 'u' || lpad(i::text, 8, '0'), 'u' || i || '@example.test',
        (ARRAY['José','Maria','Kumar','Priya','Chen','Ana','Ravi','Sara','Omar','Lena'])[i % 10 + 1] || ' Family' || (i % 4000),
        'member' || i, i, i, i % 97
      FROM generate_series(1, ${MEMBERS}) i`.execute(db);
    // Half the videos say "sunset" in the title, the other half "beach"; each has a rare word
    // (twenty videos each) and a description word; one in ten is still processing.
    await bulkLoad(db, 'videos', (conn) =>
      sql`INSERT INTO videos (id, user_id, title, description, file_key, mime_type, size_bytes, duration_ms, sha256, created_at, media_status)
      SELECT 'v' || lpad(i::text, 8, '0'), 'u' || lpad((i % ${MEMBERS} + 1)::text, 8, '0'),
        CASE WHEN i % 2 = 0 THEN 'Sunset ' ELSE 'Beach ' END || 'rare' || (i % 6000), 'about place' || (i % 500), 'k/' || i, 'video/mp4', 1000, 5000,
        repeat('0', 64), 1700000000000 + i * 1000, CASE WHEN i % 10 = 0 THEN 'processing' ELSE 'ready' END
      FROM generate_series(1, ${VIDEOS}) i`.execute(conn),
    );
    await sql`INSERT INTO hashtags (tag, videos_count, hidden, created_at)
      SELECT 'tag' || k, k % 7, CASE WHEN k % 50 = 0 THEN 1 ELSE 0 END, 1 FROM generate_series(0, 30000) k`.execute(db);
    // Likes and follows, so that the viewer's like and follow are read by key rather than from an empty table.
    await sql`INSERT INTO likes (video_id, user_id, created_at)
      SELECT 'v' || lpad(v::text, 8, '0'), ${VIEWER}, v FROM generate_series(1, ${VIDEOS}, 3) v`.execute(db);
    await sql`INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT 'u' || lpad(i::text, 8, '0'), 'u' || lpad(((i * 13 + k * 31) % ${MEMBERS} + 1)::text, 8, '0'), i
      FROM generate_series(1, ${MEMBERS}) i, generate_series(1, 5) k ON CONFLICT DO NOTHING`.execute(db);
    await seedSafety(db, MEMBERS);
    await sql`VACUUM ANALYZE`.execute(db);
  }, 300_000);

  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sorts = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort');
  const seqScans = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Seq Scan');
  const indexesOn = (nodes: PlanNode[], table: string) => nodes.filter((n) => n['Relation Name'] === table).map((n) => n['Index Name'] ?? n['Node Type']);
  const bitmapIndexes = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Bitmap Index Scan').map((n) => n['Index Name']);

  it('reads a rare word’s videos from the GIN index, and a common word’s by walking videos_feed from the newest, stopping at the page', async () => {
    for (const filtered of [false, true]) {
      for (const tier of [0, 1] as const) {
        for (const cursor of [null, { tier, at: 1700000000000 + 50_000_000, id: 'v00050000' }]) {
          const rare = await runPlan(handle.db, videoSearchQuery('postgres', VIEWER, searchWords('rare5999'), tier, cursor, 21, filtered)!, true);
          expect(bitmapIndexes(rare), describePlan(rare)).toEqual(['videos_search']);
          expect(seqScans(rare), describePlan(rare)).toEqual([]);
          // Twenty matches: every row the plan reads from videos is one of them (and their keys).
          for (const n of rare.filter((n) => n['Relation Name'] === 'videos')) expect(n['Actual Rows'], describePlan(rare)).toBeLessThanOrEqual(20);

          for (const q of ['sunset', 'sun', 'beach about']) {
            const common = await runPlan(handle.db, videoSearchQuery('postgres', VIEWER, searchWords(q), tier, cursor, 21, filtered)!, true);
            const plan = describePlan(common);
            expect(seqScans(common), plan).toEqual([]);
            expect(indexesOn(common, 'videos'), plan).toContain('videos_feed');
            const walk = common.find((n) => n['Index Name'] === 'videos_feed')!;
            expect(walk['Scan Direction'], plan).toBe('Backward');
            // 60,000 matches; the walk stops once the tier's page is full, or at the bound of 1,000 matches.
            expect(walk['Actual Rows'], plan).toBeLessThanOrEqual(tier === 0 ? 100 : 1000);
            expect(sorts(common), plan).toEqual([]);
          }
        }
      }
    }
  });

  it('reads names from the index of their words, accents folded, for a common and a rare word', async () => {
    for (const q of ['jose', 'josé family12', 'family123', 'maria fam']) {
      for (const filtered of [false, true]) {
        const nodes = await runPlan(handle.db, nameQuery('postgres', VIEWER, searchWords(q), null, null, 21, filtered), true);
        const plan = describePlan(nodes);
        expect(bitmapIndexes(nodes), plan).toContain('profiles_name_words');
        expect(seqScans(nodes), plan).toEqual([]);
        expect(
          nodes.filter((n) => n['Relation Name'] === 'profiles' && n['Node Type'] === 'Index Scan').map((n) => n['Index Name']),
          plan,
        ).not.toContain('profiles_followers');
      }
    }
  });

  it('reads an exact handle, a handle prefix and a tag prefix as ranges of their btree, custom or generic', async () => {
    const cases: Array<[() => RawBuilder<unknown>, string, string]> = [
      [() => exactHandleQuery(VIEWER, 'member123', false), 'profiles', 'profiles_handle'],
      [() => exactHandleQuery(VIEWER, 'member123', true), 'profiles', 'profiles_handle'],
      [() => handlePrefixQuery(VIEWER, 'member1', '', 21, false), 'profiles', 'profiles_handle'],
      [() => handlePrefixQuery(VIEWER, 'member1', 'member1500', 21, true), 'profiles', 'profiles_handle'],
      [() => hashtagSearchQuery('tag1', null), 'hashtags', 'hashtags_pkey'],
      [() => hashtagSearchQuery('tag1', { tag: 'tag1500' }), 'hashtags', 'hashtags_pkey'],
    ];
    for (const [query, table, index] of cases) {
      for (const nodes of [await runPlan(handle.db, query(), true), await keptPlan(handle.db, query())]) {
        const plan = describePlan(nodes);
        expect(
          nodes.filter((n) => n['Relation Name'] === table).map((n) => [n['Node Type'].replace('Index Only Scan', 'Index Scan'), n['Index Name']]),
          plan,
        ).toEqual([['Index Scan', index]]);
        expect(sorts(nodes), plan).toEqual([]);
        expect(seqScans(nodes), plan).toEqual([]);
      }
    }
  });
});
