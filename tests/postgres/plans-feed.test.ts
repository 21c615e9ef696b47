import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import { openDatabase, type DbHandle } from '#db/connect';
import { feedPageQuery } from '#server/videos/feed-rows-postgres';
import { newestQuery, pinnedQuery, threadPageQuery, topPageQuery } from '#server/videos/comment-rows-postgres';
import { safetyProbeQuery } from '#server/feed/safety';
import { testDatabaseEnv, VOLUME_SEEDING_POSTGRES } from '../helpers/test-database';
import { bulkLoad, customPlan as runPlan, genericPlan as keptPlan, nodesOf, seedSafety, type PlanNode } from './pg-plans';

// The feed and comment lists on PostgreSQL (server/videos/feed-rows-postgres.ts,
// comment-rows-postgres.ts) walk their index and stop after the page: no scan of videos or
// comments, no sort, whatever the size of the tables (a million videos here). The plans are read
// from a seeded, analysed database, both as planned for the values at hand (a custom plan) and as a
// prepared statement planned once for any values (a generic plan), since db/postgres.ts prepares
// every statement and PostgreSQL may switch to the generic plan.

const VIDEOS = 1_000_000;
const MEMBERS = 20_000;
const COMMENTS = 100_000;
const REPLIES = 60_000;
const HOT_VIDEO = 'v00000001';
// A top-level comment of the hot video with half the replies.
const HOT_THREAD = 'c00000002';
const comment = (i: number) => `c${String(i).padStart(8, '0')}`;

describe('feed and comments plans on PostgreSQL', () => {
  let handle: DbHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-plans-'));
    const { DATABASE_URL } = await testDatabaseEnv(dataDir);
    handle = openDatabase(DATABASE_URL!, VOLUME_SEEDING_POSTGRES);
    const { db } = handle;
    await sql`INSERT INTO profiles (id, email, name, handle, created_at, updated_at)
      SELECT 'u' || lpad(i::text, 8, '0'), 'u' || i || '@example.test', 'Member ' || i, 'member' || i, i, i FROM generate_series(1, ${MEMBERS}) i`.execute(db);
    // One in ten still processing: only its uploader sees it (the visibility filter has work to do).
    await bulkLoad(db, 'videos', (conn) =>
      sql`INSERT INTO videos (id, user_id, title, file_key, mime_type, size_bytes, duration_ms, sha256, created_at, media_status)
      SELECT 'v' || lpad(i::text, 8, '0'), 'u' || lpad((i % ${MEMBERS} + 1)::text, 8, '0'), 'Video ' || i, 'k/' || i, 'video/mp4', 1000, 5000,
        repeat('0', 64), 1700000000000 + i * 1000, CASE WHEN i % 10 = 0 THEN 'processing' ELSE 'ready' END
      FROM generate_series(1, ${VIDEOS}) i`.execute(conn),
    );
    await sql`INSERT INTO likes (video_id, user_id, created_at)
      SELECT 'v' || lpad(v::text, 8, '0'), 'u' || lpad(u::text, 8, '0'), v FROM generate_series(1, 20000, 7) v, generate_series(1, 20) u`.execute(db);
    // Top-level comments: the even ones on the hot video, the odd ones one per other video.
    await sql`INSERT INTO comments (id, video_id, user_id, content, created_at)
      SELECT 'c' || lpad(i::text, 8, '0'), CASE WHEN i % 2 = 0 THEN ${HOT_VIDEO} ELSE 'v' || lpad((i % ${VIDEOS} + 1)::text, 8, '0') END,
        'u' || lpad((i % ${MEMBERS} + 1)::text, 8, '0'), 'Comment ' || i, 1700000000000 + i
      FROM generate_series(1, ${COMMENTS}) i`.execute(db);
    // Replies on the hot video: half in the hot thread, the rest spread over a thousand threads.
    await sql`INSERT INTO comments (id, video_id, user_id, content, created_at, parent_id, reply_to_user_id)
      SELECT 'r' || lpad(j::text, 8, '0'), ${HOT_VIDEO}, 'u' || lpad((j % ${MEMBERS} + 1)::text, 8, '0'), 'Reply ' || j, 1800000000000 + j,
        CASE WHEN j % 2 = 0 THEN ${HOT_THREAD} ELSE 'c' || lpad(((j % 1000) * 2 + 4)::text, 8, '0') END, 'u00000001'
      FROM generate_series(1, ${REPLIES}) j`.execute(db);
    // Pins: the hot video's, and one video in four of those with a comment.
    await sql`UPDATE comments SET pinned = 1 WHERE id = ${comment(4)} OR (parent_id IS NULL AND video_id <> ${HOT_VIDEO} AND right(id, 1) IN ('1', '5'))`.execute(
      db,
    );
    await sql`UPDATE videos v SET pinned_comment_id = c.id FROM comments c WHERE c.pinned = 1 AND c.video_id = v.id`.execute(db);
    await sql`INSERT INTO comment_likes (comment_id, user_id, video_id, created_at)
      SELECT 'c' || lpad((i * 2)::text, 8, '0'), 'u' || lpad(u::text, 8, '0'), ${HOT_VIDEO}, i FROM generate_series(1, 5000) i, generate_series(1, 5) u`.execute(
      db,
    );
    // Blocks and mutes (server/feed/safety.ts): every member blocks five others and mutes three, so
    // the filtered statements' probes have real indexes to choose against a scan.
    await seedSafety(db, MEMBERS);
    await sql`VACUUM ANALYZE`.execute(db);
  }, 300_000);

  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const customPlan = (query: RawBuilder<unknown>) => runPlan(handle.db, query);
  const genericPlan = (query: RawBuilder<unknown>) => keptPlan(handle.db, query);
  const both = async (query: () => RawBuilder<unknown>) => [await customPlan(query()), await genericPlan(query())];
  const describePlan = (nodes: PlanNode[]) => nodes.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name']].filter(Boolean).join(' ')).join(' | ');

  /**
   * One walk of `index` on `table`, no scan, and no sort; with `pageSort`, a sort of the page alone
   * (above the walk's Limit: a few rows, never the table's) is allowed.
   */
  function expectIndexWalk(nodes: PlanNode[], table: string, index: string, direction: 'Backward' | 'Forward', pageSort = false): void {
    const scans = nodes.filter((n) => n['Relation Name'] === table);
    expect(
      scans.map((n) => [n['Node Type'], n['Index Name'], n['Scan Direction']]),
      describePlan(nodes),
    ).toEqual([['Index Scan', index, direction]]);
    expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'])).toEqual([]);
    if (pageSort) {
      for (const sort of nodes.filter((n) => /Sort/.test(n['Node Type'])))
        expect(
          nodesOf(sort).some((n) => n['Node Type'] === 'Limit'),
          describePlan(nodes),
        ).toBe(true);
      return;
    }
    expect(
      nodes.map((n) => n['Node Type']),
      describePlan(nodes),
    ).not.toContain('Sort');
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Incremental Sort');
  }

  const viewer = 'u00000007';
  const cursor = { at: 1700000000000 + 15_000 * 1000, id: 'v00015000' };
  // Each walk as most members read it (filtered false) and as a viewer with blocks or mutes does.
  const walks = {
    'feed first page': [(filtered: boolean) => feedPageQuery(viewer, 21, null, filtered), 'videos', 'videos_feed', 'Backward'],
    'feed next page': [(filtered: boolean) => feedPageQuery(viewer, 21, cursor, filtered), 'videos', 'videos_feed', 'Backward'],
    'top-level comments first page': [(filtered: boolean) => topPageQuery(viewer, HOT_VIDEO, 51, null, filtered), 'comments', 'comments_top', 'Backward'],
    'top-level comments next page': [
      (filtered: boolean) => topPageQuery(viewer, HOT_VIDEO, 51, { at: 1700000000000 + 20_000, id: comment(20_000) }, filtered),
      'comments',
      'comments_top',
      'Backward',
    ],
    'thread first page': [(filtered: boolean) => threadPageQuery(viewer, HOT_THREAD, 51, null, filtered), 'comments', 'comments_thread', 'Forward'],
    'thread next page': [
      (filtered: boolean) => threadPageQuery(viewer, HOT_THREAD, 51, { at: 1800000000000 + 10_000, id: 'r00010000' }, filtered),
      'comments',
      'comments_thread',
      'Forward',
    ],
  } as const;

  it.each(Object.keys(walks) as Array<keyof typeof walks>)('%s walks its index without sorting (custom and generic plans)', async (name) => {
    const [query, table, index, direction] = walks[name];
    for (const nodes of await both(() => query(false))) expectIndexWalk(nodes, table, index, direction);
  });

  /** Every read of blocks and mutes is by an index: no scan of either, whatever the plan's join. */
  const expectSafetyProbes = (nodes: PlanNode[], tables: string[]) => {
    const reads = nodes.filter((n) => n['Relation Name'] === 'blocks' || n['Relation Name'] === 'mutes');
    expect([...new Set(reads.map((n) => n['Relation Name']))].sort(), describePlan(nodes)).toEqual(tables);
    for (const n of reads) expect(n['Node Type'], describePlan(nodes)).toMatch(/^Index (Only )?Scan$/);
  };

  it.each(Object.keys(walks) as Array<keyof typeof walks>)(
    '%s, filtered, walks its index, sorting at most its page, and probes blocks by key',
    async (name) => {
      const [query, table, index, direction] = walks[name];
      for (const nodes of await both(() => query(true))) {
        expectIndexWalk(nodes, table, index, direction, true);
        expectSafetyProbes(nodes, name.startsWith('feed') ? ['blocks', 'mutes'] : ['blocks']);
      }
    },
  );

  it('a filtered pull’s full lists, pin and changed rows read blocks by key, never scanning', async () => {
    const ids = ['v00000001', 'v00000002', 'v00000006', 'v00000010'];
    for (const nodes of [...(await both(() => newestQuery(viewer, ids, 20, true))), ...(await both(() => pinnedQuery(viewer, HOT_VIDEO, true)))]) {
      expect(
        nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']),
        describePlan(nodes),
      ).toEqual([]);
      expectSafetyProbes(nodes, ['blocks']);
    }
  });

  it('the probe reads three index ranges', async () => {
    for (const nodes of await both(() => safetyProbeQuery(viewer))) {
      expect(
        nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']),
        describePlan(nodes),
      ).toEqual([]);
      expectSafetyProbes(nodes, ['blocks', 'mutes']);
    }
  });

  it('finds the pinned comment by keys only: the video, then the comment it names', async () => {
    for (const nodes of await both(() => pinnedQuery(viewer, HOT_VIDEO, false))) {
      const scans = nodes.filter((n) => n['Relation Name'] === 'videos' || n['Relation Name'] === 'comments');
      expect(
        scans.map((n) => [n['Relation Name'], n['Node Type'].replace('Index Only Scan', 'Index Scan'), n['Index Name']]),
        describePlan(nodes),
      ).toEqual([
        ['videos', 'Index Scan', 'videos_pkey'],
        ['comments', 'Index Scan', 'comments_pkey'],
      ]);
      // Every table by a key: no walk of profiles into a merge join, no sort.
      expect(nodes.filter((n) => n['Relation Name'] && !n['Node Type'].startsWith('Index')).map((n) => n['Relation Name'])).toEqual([]);
      expect(nodes.map((n) => n['Node Type']).filter((t) => /Sort|Merge/.test(t))).toEqual([]);
    }
  });

  it('a pull’s full lists read each video’s pin by keys, walk comments_top and the viewer’s replies, never scanning', async () => {
    const ids = ['v00000001', 'v00000002', 'v00000006', 'v00000010'];
    for (const nodes of await both(() => newestQuery(viewer, ids, 20, false))) {
      const comments = nodes.filter((n) => n['Relation Name'] === 'comments').map((n) => n['Index Name']);
      expect(comments.sort(), describePlan(nodes)).toEqual(['comments_pkey', 'comments_top', 'comments_user_video']);
      expect(nodes.filter((n) => n['Relation Name'] === 'videos').map((n) => n['Index Name'])).toEqual(['videos_pkey']);
      expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'])).toEqual([]);
    }
  });

  it('joins the author and the viewer’s like by primary key, never scanning likes or profiles', async () => {
    for (const nodes of [await customPlan(walks['feed first page'][0](false)), await genericPlan(walks['feed next page'][0](false))]) {
      const seq = nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']);
      expect(seq).toEqual([]);
    }
  });
});
