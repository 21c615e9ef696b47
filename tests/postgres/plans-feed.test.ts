import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import { openDatabase, type DbHandle } from '#db/connect';
import { commentsPageQuery, feedPageQuery } from '#server/videos/feed-rows-postgres';
import { testDatabaseEnv } from '../helpers/test-database';
import { customPlan as runPlan, genericPlan as keptPlan, type PlanNode } from './pg-plans';

// The feed and comments pages on PostgreSQL (server/videos/feed-rows-postgres.ts) read their index
// backwards and stop after the page: no scan of videos, no sort, whatever the size of the tables.
// The plans are read from a seeded, analysed database, both as planned for the values at hand (a
// custom plan) and as a prepared statement planned once for any values (a generic plan), since
// db/postgres.ts prepares every statement and PostgreSQL may switch to the generic plan.

const VIDEOS = 20_000;
const MEMBERS = 500;
const HOT_VIDEO = 'v00000001';

describe('feed and comments plans on PostgreSQL', () => {
  let handle: DbHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-plans-'));
    const { DATABASE_URL } = await testDatabaseEnv(dataDir);
    handle = openDatabase(DATABASE_URL!);
    const { db } = handle;
    await sql`INSERT INTO profiles (id, email, name, handle, created_at, updated_at)
      SELECT 'u' || lpad(i::text, 8, '0'), 'u' || i || '@example.test', 'Member ' || i, 'member' || i, i, i FROM generate_series(1, ${MEMBERS}) i`.execute(db);
    // One in ten still processing: only its uploader sees it (the visibility filter has work to do).
    await sql`INSERT INTO videos (id, user_id, title, file_key, mime_type, size_bytes, duration_ms, sha256, created_at, media_status)
      SELECT 'v' || lpad(i::text, 8, '0'), 'u' || lpad((i % ${MEMBERS} + 1)::text, 8, '0'), 'Video ' || i, 'k/' || i, 'video/mp4', 1000, 5000,
        repeat('0', 64), 1700000000000 + i * 1000, CASE WHEN i % 10 = 0 THEN 'processing' ELSE 'ready' END
      FROM generate_series(1, ${VIDEOS}) i`.execute(db);
    await sql`INSERT INTO likes (video_id, user_id, created_at)
      SELECT 'v' || lpad(v::text, 8, '0'), 'u' || lpad(u::text, 8, '0'), v FROM generate_series(1, ${VIDEOS}, 7) v, generate_series(1, 20) u`.execute(db);
    await sql`INSERT INTO comments (id, video_id, user_id, content, created_at)
      SELECT 'c' || lpad(i::text, 8, '0'), CASE WHEN i % 2 = 0 THEN ${HOT_VIDEO} ELSE 'v' || lpad((i % ${VIDEOS} + 1)::text, 8, '0') END,
        'u' || lpad((i % ${MEMBERS} + 1)::text, 8, '0'), 'Comment ' || i, 1700000000000 + i
      FROM generate_series(1, 40000) i`.execute(db);
    await sql`ANALYZE`.execute(db);
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const customPlan = (query: RawBuilder<unknown>) => runPlan(handle.db, query);
  const genericPlan = (query: RawBuilder<unknown>) => keptPlan(handle.db, query);

  function expectIndexWalk(nodes: PlanNode[], table: string, index: string): void {
    const scans = nodes.filter((n) => n['Relation Name'] === table);
    expect(scans.map((n) => [n['Node Type'], n['Index Name'], n['Scan Direction']])).toEqual([['Index Scan', index, 'Backward']]);
    expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'videos')).toEqual([]);
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Incremental Sort');
  }

  const viewer = 'u00000007';
  const cursor = { at: 1700000000000 + 15_000 * 1000, id: 'v00015000' };
  const queries = {
    'feed first page': () => feedPageQuery(viewer, 21, null),
    'feed next page': () => feedPageQuery(viewer, 21, cursor),
    'comments first page': () => commentsPageQuery(viewer, HOT_VIDEO, 51, null),
    'comments next page': () => commentsPageQuery(viewer, HOT_VIDEO, 51, { at: 1700000000000 + 20_000, id: 'c00020000' }),
  };
  const indexOf = (name: string) => (name.startsWith('feed') ? (['videos', 'videos_feed'] as const) : (['comments', 'comments_top'] as const));

  it.each(Object.keys(queries) as Array<keyof typeof queries>)('%s walks its index backwards without sorting (custom and generic plans)', async (name) => {
    const [table, index] = indexOf(name);
    expectIndexWalk(await customPlan(queries[name]()), table, index);
    expectIndexWalk(await genericPlan(queries[name]()), table, index);
  });

  it('joins the author and the viewer’s like by primary key, never scanning likes or profiles', async () => {
    for (const nodes of [await customPlan(queries['feed first page']()), await genericPlan(queries['feed next page']())]) {
      const seq = nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']);
      expect(seq).toEqual([]);
    }
  });
});
