import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import { openDatabase, type DbHandle } from '#db/connect';
import { creatorQuery, peoplePageQuery, suggestedQuery } from '#server/people/reads';
import { creatorVideosQuery, followingFeedQuery } from '#server/people/video-reads';
import { testDatabaseEnv, VOLUME_SEEDING_POSTGRES } from '../helpers/test-database';
import { bulkLoad, customPlan as runPlan, genericPlan as keptPlan, nodesOf, seedSafety, type PlanNode } from './pg-plans';

// The people reads on PostgreSQL (server/people/reads.ts, video-reads.ts) on a seeded, analysed
// database: the Following feed reads videos_user_ready once per followed creator (a LATERAL top-N)
// and sorts only those tops, never all videos; the lists walk follows_followee / follows_follower,
// a creator's videos videos_user_ready, who to follow profiles_followers, each backwards and
// stopping after the page. Plans as run with the values at hand (custom, with the rows counted)
// and as a prepared statement keeps them for any values (generic), since db/postgres.ts prepares
// every statement (docs/decisions/0022-following-feed-on-read.md).

const describePlan = (nodes: PlanNode[]) => nodes.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name']].filter(Boolean).join(' ')).join(' | ');

const MEMBERS = 3000;
const VIDEOS = 300_000;
const FOLLOWED = 200;
const PAGE_ROWS = 21;
const id = (i: number) => `u${String(i).padStart(8, '0')}`;
const VIEWER = id(1);
const STAR = id(2);

describe('people plans on PostgreSQL', () => {
  let handle: DbHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-plans-people-'));
    const { DATABASE_URL } = await testDatabaseEnv(dataDir);
    handle = openDatabase(DATABASE_URL!, VOLUME_SEEDING_POSTGRES);
    const { db } = handle;
    await sql`INSERT INTO profiles (id, email, name, handle, created_at, updated_at, followers_count)
      SELECT 'u' || lpad(i::text, 8, '0'), 'u' || i || '@example.test', 'Member ' || i, 'member' || i, i, i, (i * 7919) % 1000
      FROM generate_series(1, ${MEMBERS}) i`.execute(db);
    // About 100 videos a member, one in ten still processing (the ready filter has work to do).
    await bulkLoad(db, 'videos', (conn) =>
      sql`INSERT INTO videos (id, user_id, title, file_key, mime_type, size_bytes, duration_ms, sha256, created_at, media_status)
      SELECT 'v' || lpad(i::text, 8, '0'), 'u' || lpad((i % ${MEMBERS} + 1)::text, 8, '0'), 'Video ' || i, 'k/' || i, 'video/mp4', 1000, 5000,
        repeat('0', 64), 1700000000000 + i * 1000, CASE WHEN i % 10 = 0 THEN 'processing' ELSE 'ready' END
      FROM generate_series(1, ${VIDEOS}) i`.execute(conn),
    );
    // The viewer follows 200 creators; everyone else 20, and the star is followed by everyone.
    await sql`INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT 'u' || lpad(i::text, 8, '0'), 'u' || lpad(((i + k * 37) % ${MEMBERS} + 1)::text, 8, '0'), 1700000000000 + i * 10 + k
      FROM generate_series(2, ${MEMBERS}) i, generate_series(1, 20) k
      ON CONFLICT DO NOTHING`.execute(db);
    await sql`INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT 'u' || lpad(i::text, 8, '0'), ${STAR}, 1800000000000 + i FROM generate_series(3, ${MEMBERS}) i
      ON CONFLICT DO NOTHING`.execute(db);
    await sql`INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT ${VIEWER}, 'u' || lpad((k * 13 + 3)::text, 8, '0'), 1700000000000 + k FROM generate_series(1, ${FOLLOWED}) k`.execute(db);
    await sql`INSERT INTO likes (video_id, user_id, created_at)
      SELECT 'v' || lpad(v::text, 8, '0'), ${VIEWER}, v FROM generate_series(1, ${VIDEOS}, 3) v`.execute(db);
    // Every member blocks five others and mutes three (server/feed/safety.ts: the filtered statements).
    await seedSafety(db, MEMBERS);
    // As autovacuum keeps a live table: the visibility map set for index-only counts.
    await sql`VACUUM ANALYZE`.execute(db);
  }, 240_000);

  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const customPlan = (query: RawBuilder<unknown>) => runPlan(handle.db, query, true);
  const genericPlan = (query: RawBuilder<unknown>) => keptPlan(handle.db, query);

  const both = async (query: () => RawBuilder<unknown>) => [await customPlan(query()), await genericPlan(query())];
  const scansOf = (nodes: PlanNode[], table: string) =>
    nodes.filter((n) => n['Relation Name'] === table).map((n) => [n['Node Type'].replace('Index Only Scan', 'Index Scan'), n['Index Name']]);
  const noSort = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort');

  const cursor = { at: 1700000000000 + 200_000 * 1000, id: 'v00200000' };

  /** Blocks and mutes, when a filtered statement reads them, only by an index. */
  const expectSafetyByIndex = (nodes: PlanNode[], filtered: boolean) => {
    const reads = nodes.filter((n) => n['Relation Name'] === 'blocks' || n['Relation Name'] === 'mutes');
    if (!filtered) return expect(reads, describePlan(nodes)).toEqual([]);
    expect(reads.length, describePlan(nodes)).toBeGreaterThan(0);
    for (const n of reads) expect(n['Node Type'], describePlan(nodes)).toMatch(/^Index (Only )?Scan$/);
  };

  it.each([
    ['first page', null, false],
    ['next page', cursor, false],
    ['first page, filtered', null, true],
    ['next page, filtered', cursor, true],
  ] as const)('the Following feed (%s) reads videos_user_ready per followed creator and sorts only their tops', async (_, after, filtered) => {
    for (const nodes of await both(() => followingFeedQuery('postgres', VIEWER, after, filtered))) {
      const plan = describePlan(nodes);
      expectSafetyByIndex(nodes, filtered);
      // Per creator its index, and the page's 21 videos by primary key: nothing else of videos.
      const videoScans = scansOf(nodes, 'videos');
      expect(
        videoScans.filter(([, index]) => index === 'videos_user_ready'),
        plan,
      ).toEqual([['Index Scan', 'videos_user_ready']]);
      expect(
        videoScans.filter(([, index]) => index !== 'videos_user_ready'),
        plan,
      ).toEqual([['Index Scan', 'videos_pkey']]);
      expect(scansOf(nodes, 'follows'), plan).toEqual([['Index Scan', expect.stringMatching(/^follows_(follower|pk)$/)]]);
      expect(
        nodes.filter((n) => n['Node Type'] === 'Seq Scan'),
        plan,
      ).toEqual([]);
      // One sort: of the followed creators' tops (the top-N of a LATERAL under it), not of videos.
      const sorts = noSort(nodes);
      expect(sorts.length, plan).toBe(1);
      const sorted = nodesOf(sorts[0]!);
      expect(sorted.some((n) => n['Node Type'] === 'Limit') && sorted.some((n) => n['Index Name'] === 'videos_user_ready'), plan).toBe(true);
    }
  });

  it('sorts at most a page per followed creator, fewer rows than their ready videos', async () => {
    const nodes = await customPlan(followingFeedQuery('postgres', VIEWER, null, false));
    const input = noSort(nodes)[0]!.Plans![0]!['Actual Rows']!;
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM videos v JOIN follows f ON f.followee_id = v.user_id
      WHERE f.follower_id = ${VIEWER} AND v.media_status = 'ready'`.execute(handle.db);
    expect(input).toBeLessThanOrEqual(FOLLOWED * PAGE_ROWS);
    expect(input).toBeLessThan(Number(rows[0]!.n) / 3);
  });

  it.each([false, true])(
    'pages followers by follows_followee and following by follows_follower, backwards, without sorting (filtered: %s)',
    async (filtered) => {
      const cases = [
        [() => peoplePageQuery(VIEWER, STAR, 'followers', null, filtered), 'follows_followee'],
        [() => peoplePageQuery(VIEWER, STAR, 'followers', { at: 1800000000000 + 1500, id: id(1500) }, filtered), 'follows_followee'],
        [() => peoplePageQuery(STAR, VIEWER, 'following', null, filtered), 'follows_follower'],
        [() => peoplePageQuery(STAR, VIEWER, 'following', { at: 1700000000000 + 100, id: id(1303) }, filtered), 'follows_follower'],
      ] as const;
      for (const [query, index] of cases) {
        for (const nodes of await both(query)) {
          const plan = describePlan(nodes);
          expectSafetyByIndex(nodes, filtered);
          const walk = nodes.filter((n) => n['Relation Name'] === 'follows' && n['Index Name'] === index);
          expect(
            walk.map((n) => n['Scan Direction']),
            plan,
          ).toContain('Backward');
          expect(
            nodes.filter((n) => n['Node Type'] === 'Seq Scan'),
            plan,
          ).toEqual([]);
          expect(noSort(nodes), plan).toEqual([]);
        }
      }
    },
  );

  it('reads a creator’s videos by walking videos_user_ready backwards, and counts them on it alone', async () => {
    for (const nodes of await both(() => creatorVideosQuery(VIEWER, id(3), cursor))) {
      const plan = describePlan(nodes);
      expect(scansOf(nodes, 'videos'), plan).toEqual([['Index Scan', 'videos_user_ready']]);
      expect(noSort(nodes), plan).toEqual([]);
    }
    for (const nodes of await both(() => creatorQuery(VIEWER, 'member3'))) {
      const plan = describePlan(nodes);
      expect(
        nodes.filter((n) => n['Relation Name'] === 'videos').map((n) => [n['Node Type'], n['Index Name']]),
        plan,
      ).toEqual([['Index Only Scan', 'videos_user_ready']]);
      expect(
        nodes.filter((n) => n['Node Type'] === 'Seq Scan'),
        plan,
      ).toEqual([]);
    }
  });

  it.each([false, true])('finds who to follow by walking profiles_followers from the top (filtered: %s)', async (filtered) => {
    for (const nodes of await both(() => suggestedQuery(VIEWER, filtered))) {
      const plan = describePlan(nodes);
      expectSafetyByIndex(nodes, filtered);
      expect(scansOf(nodes, 'profiles'), plan).toEqual([['Index Scan', 'profiles_followers']]);
      expect(
        nodes.filter((n) => n['Node Type'] === 'Seq Scan'),
        plan,
      ).toEqual([]);
      expect(noSort(nodes), plan).toEqual([]);
    }
  });
});
