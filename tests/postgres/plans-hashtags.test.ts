import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import { openDatabase, type DbHandle } from '#db/connect';
import { hashtagVideosQuery, type HashtagCursor } from '#server/discovery/hashtag-page';
import { hashtagListQuery } from '#server/admin/hashtags';
import { testDatabaseEnv, VOLUME_SEEDING_POSTGRES } from '../helpers/test-database';
import { bulkLoad, customPlan as runPlan, genericPlan as keptPlan, seedSafety, type PlanNode } from './pg-plans';

// The hashtag reads on PostgreSQL (server/discovery/hashtag-page.ts, server/admin/hashtags.ts) on a
// seeded, analysed database where one tag carries half of all videos: each page order is a backward
// walk of its own index (video_hashtags_recent, video_hashtags_top's primary key) that stops after the page, the
// videos, authors and the viewer's likes by key, with no sort of the tag's videos; the admin's lists
// are a range of the primary key or a walk of hashtags_videos_count. Plans as run with the values at
// hand (custom, rows counted) and as a prepared statement keeps them for any values (generic).

const describePlan = (nodes: PlanNode[]) => nodes.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name']].filter(Boolean).join(' ')).join(' | ');

const MEMBERS = 3000;
const VIDEOS = 200_000;
const TAGS = 20_000;
const id = (i: number) => `u${String(i).padStart(8, '0')}`;
const VIEWER = id(1);
const BIG = 'big';

describe('hashtag plans on PostgreSQL', () => {
  let handle: DbHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-plans-hashtags-'));
    const { DATABASE_URL } = await testDatabaseEnv(dataDir);
    handle = openDatabase(DATABASE_URL!, VOLUME_SEEDING_POSTGRES);
    const { db } = handle;
    await sql`INSERT INTO profiles (id, email, name, handle, created_at, updated_at, is_active)
      SELECT 'u' || lpad(i::text, 8, '0'), 'u' || i || '@example.test', 'Member ' || i, 'member' || i, i, i, CASE WHEN i % 50 = 0 THEN 0 ELSE 1 END
      FROM generate_series(1, ${MEMBERS}) i`.execute(db);
    // One in ten videos still processing (not filed), likes spread over 0..499.
    await bulkLoad(db, 'videos', (conn) =>
      sql`INSERT INTO videos (id, user_id, title, file_key, mime_type, size_bytes, duration_ms, sha256, created_at, media_status, likes_count)
      SELECT 'v' || lpad(i::text, 8, '0'), 'u' || lpad((i % ${MEMBERS} + 1)::text, 8, '0'), 'Video ' || i, 'k/' || i, 'video/mp4', 1000, 5000,
        repeat('0', 64), 1700000000000 + (i / 3) * 1000, CASE WHEN i % 10 = 0 THEN 'processing' ELSE 'ready' END, (i * 7919) % 500
      FROM generate_series(1, ${VIDEOS}) i`.execute(conn),
    );
    // Every ready video under one of TAGS small tags, and every other one under the big tag too.
    await sql`INSERT INTO hashtags (tag, videos_count, hidden, created_at)
      SELECT 'tag' || k, 0, 0, 1 FROM generate_series(0, ${TAGS - 1}) k UNION ALL SELECT ${BIG}, 0, 0, 1`.execute(db);
    await bulkLoad(db, 'video_hashtags', (conn) =>
      sql`INSERT INTO video_hashtags (tag, video_id, created_at)
      SELECT 'tag' || (v.created_at % ${TAGS}), v.id, v.created_at FROM videos v WHERE v.media_status = 'ready'
      UNION ALL SELECT ${BIG}, v.id, v.created_at FROM videos v WHERE v.media_status = 'ready' AND substr(v.id, 9, 1) IN ('0', '2', '4', '6', '8')`.execute(
        conn,
      ),
    );
    await bulkLoad(db, 'video_hashtags_top', (conn) =>
      sql`INSERT INTO video_hashtags_top (tag, likes_count, created_at, video_id)
      SELECT h.tag, v.likes_count, h.created_at, h.video_id FROM video_hashtags h JOIN videos v ON v.id = h.video_id`.execute(conn),
    );
    await sql`UPDATE hashtags h SET videos_count = c.n FROM (SELECT tag, count(*) AS n FROM video_hashtags GROUP BY tag) c WHERE c.tag = h.tag`.execute(db);
    await sql`INSERT INTO likes (video_id, user_id, created_at)
      SELECT 'v' || lpad(v::text, 8, '0'), ${VIEWER}, v FROM generate_series(1, ${VIDEOS}, 3) v`.execute(db);
    await seedSafety(db, MEMBERS);
    await sql`VACUUM ANALYZE`.execute(db);
  }, 240_000);

  afterAll(async () => {
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const both = async (query: () => RawBuilder<unknown>) => [await runPlan(handle.db, query(), true), await keptPlan(handle.db, query())];
  const sorts = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort');
  const seqScans = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'].startsWith('Bitmap'));
  const scansOf = (nodes: PlanNode[], table: string) =>
    nodes.filter((n) => n['Relation Name'] === table).map((n) => [n['Node Type'].replace('Index Only Scan', 'Index Scan'), n['Index Name']]);

  const cursors: Record<'recent' | 'top', HashtagCursor> = {
    recent: { sort: 'recent', at: 1700000000000 + 30_000 * 1000, id: 'v00090000' },
    top: { sort: 'top', likes: 250, at: 1700000000000 + 30_000 * 1000, id: 'v00090000' },
  };

  it.each([
    ['recent', 'video_hashtags', 'video_hashtags_recent'],
    ['top', 'video_hashtags_top', 'video_hashtags_top_pk'],
  ] as const)('reads the %s order of a big tag as a backward walk of %s by %s that stops after the page', async (sort, table, index) => {
    for (const filtered of [false, true]) {
      for (const after of [null, cursors[sort]]) {
        for (const nodes of await both(() => hashtagVideosQuery(VIEWER, BIG, sort, after, filtered))) {
          const plan = describePlan(nodes);
          expect(scansOf(nodes, table), plan).toEqual([['Index Scan', index]]);
          expect(nodes.find((n) => n['Relation Name'] === table)!['Scan Direction'], plan).toBe('Backward');
          expect(scansOf(nodes, 'videos'), plan).toEqual([['Index Scan', 'videos_pkey']]);
          expect(scansOf(nodes, 'profiles'), plan).toEqual([['Index Scan', 'profiles_pkey']]);
          for (const n of nodes.filter((n) => n['Relation Name'] === 'blocks' || n['Relation Name'] === 'mutes'))
            expect(n['Node Type'], plan).toMatch(/^Index (Only )?Scan$/);
          expect(sorts(nodes), plan).toEqual([]);
          expect(seqScans(nodes), plan).toEqual([]);
          // As run: a page and a little more of the tag's 90,000 rows (a suspended author's are skipped).
          const walked = nodes.find((n) => n['Relation Name'] === table)!['Actual Rows'];
          if (walked !== undefined) expect(walked, plan).toBeLessThan(200);
        }
      }
    }
  });

  // The statement of the likes trigger (db/migrations/0021_hashtags_top.ts, vidi_video_likes_to_tags)
  // for a video of the big tag: its tags by video_hashtags_video, each key by the primary key.
  it('moves a liked video’s keys of the top order by primary key, whatever the tag’s size', async () => {
    const video = 'v00090002';
    const likes = (90002 * 7919) % 500;
    const query = () => sql`UPDATE video_hashtags_top t SET likes_count = ${likes + 1} FROM video_hashtags h
      WHERE h.video_id = ${video} AND t.tag = h.tag AND t.likes_count = ${likes} AND t.created_at = h.created_at AND t.video_id = ${video}`;
    for (const nodes of [await runPlan(handle.db, query()), await keptPlan(handle.db, query())]) {
      const plan = describePlan(nodes);
      const reads = nodes.filter((n) => n['Node Type'] !== 'ModifyTable');
      expect(scansOf(reads, 'video_hashtags_top'), plan).toEqual([['Index Scan', 'video_hashtags_top_pk']]);
      expect(scansOf(nodes, 'video_hashtags'), plan).toEqual([['Index Scan', 'video_hashtags_video']]);
      expect(seqScans(nodes), plan).toEqual([]);
    }
  });

  it('lists the admin’s tags by a range of the primary key, or by walking hashtags_videos_count from the top', async () => {
    const cases = [
      [() => hashtagListQuery('tag1', null, 20), 'hashtags_pkey'],
      [() => hashtagListQuery('tag1', { kind: 'prefix', tag: 'tag15' }, 20), 'hashtags_pkey'],
      [() => hashtagListQuery('', null, 20), 'hashtags_videos_count'],
      [() => hashtagListQuery('', { kind: 'used', count: 5, tag: 'tag100' }, 20), 'hashtags_videos_count'],
    ] as const;
    for (const [query, index] of cases) {
      for (const nodes of await both(query)) {
        const plan = describePlan(nodes);
        expect(scansOf(nodes, 'hashtags'), plan).toEqual([['Index Scan', index]]);
        expect(sorts(nodes), plan).toEqual([]);
        expect(seqScans(nodes), plan).toEqual([]);
      }
    }
  });
});
