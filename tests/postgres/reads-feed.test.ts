import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, openSqlite, type DbHandle } from '#db/connect';
import {
  readCommentsByIds,
  readCommentsPage,
  readFeedPage,
  readFeedPageJson,
  readNewestComments,
  readVia,
  readVideosByIds,
  sqliteFeedPageJson,
} from '#server/videos/feed-rows';
import { testDatabaseEnv } from '../helpers/test-database';

// The PostgreSQL reads of server/videos/feed-rows-postgres.ts answer exactly what the SQLite ones
// answer for the same rows: the same items (PostgreSQL builds the feed JSON itself, as SQLite
// does), the same pages and cursors, the same visibility. Both databases hold the same rows here.

const T0 = Date.UTC(2024, 1, 29, 23, 59, 59, 999);
const ODD_NAME = 'Zoë "Q" \\ back\nslash\t\u0001 ☃ 𝄞';

const profiles = [
  { id: 'u1', name: ODD_NAME },
  { id: 'u2', name: 'Bob' },
];
// Times with 0, 1, 7 and 999 milliseconds, a tie on created_at (the id breaks it), keys null or set.
const videos = [
  { id: 'v1', user_id: 'u1', created_at: T0, poster_key: 'p/1.jpg', media_key: 'm/1', captions_key: 'c/1.vtt', media_status: 'ready' },
  { id: 'v2', user_id: 'u2', created_at: T0 - 999, poster_key: null, media_key: null, captions_key: null, media_status: 'ready' },
  { id: 'v3', user_id: 'u2', created_at: T0 - 999, poster_key: null, media_key: 'm/3', captions_key: null, media_status: 'ready' },
  { id: 'v4', user_id: 'u2', created_at: Date.UTC(2001, 0, 1, 0, 0, 0, 7), poster_key: null, media_key: null, captions_key: null, media_status: 'processing' },
  { id: 'v5', user_id: 'u1', created_at: Date.UTC(1999, 11, 31, 23, 0, 0, 1), poster_key: null, media_key: null, captions_key: null, media_status: 'failed' },
  { id: 'v6', user_id: 'u2', created_at: 1000, poster_key: 'p/6.jpg', media_key: null, captions_key: null, media_status: 'ready' },
] as const;

async function seed(handle: DbHandle): Promise<void> {
  const { db } = handle;
  for (const p of profiles)
    await db
      .insertInto('profiles')
      .values({
        ...p,
        handle: `member_${p.id}`,
        email: `${p.id}@example.test`,
        is_admin: 0,
        is_active: 1,
        account_status: 'active',
        created_at: 1,
        updated_at: 1,
      })
      .execute();
  for (const [i, v] of videos.entries())
    await db
      .insertInto('videos')
      .values({
        ...v,
        title: `Title "${i}" ${ODD_NAME}`,
        description: i % 2 ? '' : 'line\nbreak',
        file_key: `f/${v.id}.mp4`,
        mime_type: 'video/mp4',
        size_bytes: 1000,
        duration_ms: 1000 * i + 1,
        sha256: '0'.repeat(64),
        media_progress: i * 10,
        media_error: v.media_status === 'failed' ? 'ffmpeg said "no"' : null,
        likes_count: i,
        comments_count: 2 * i,
        shares_count: 3 * i,
        views_count: 4 * i,
      })
      .execute();
  await db
    .insertInto('likes')
    .values([
      { video_id: 'v1', user_id: 'u1', created_at: 5 },
      { video_id: 'v3', user_id: 'u2', created_at: 6 },
    ])
    .execute();
  for (let i = 0; i < 7; i++)
    await db
      .insertInto('comments')
      .values({ id: `c${i}`, video_id: i < 5 ? 'v1' : 'v2', user_id: i % 2 ? 'u1' : 'u2', content: `Comment ${i} ${ODD_NAME}`, created_at: T0 + (i % 3) })
      .execute();
}

describe('PostgreSQL reads answer what the SQLite reads answer', () => {
  let pgHandle: DbHandle;
  let liteHandle: ReturnType<typeof openSqlite>;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vidi-reads-'));
    pgHandle = openDatabase((await testDatabaseEnv(dataDir)).DATABASE_URL!);
    liteHandle = openSqlite(':memory:');
    await migrateToLatest(liteHandle.db);
    await seed(pgHandle);
    await seed(liteHandle);
  });
  afterAll(async () => {
    await pgHandle?.close();
    await liteHandle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const pg = () => readVia(pgHandle.engine, pgHandle.db);
  const lite = () => readVia(liteHandle.engine, liteHandle.db);

  it.each(['u1', 'u2', 'nobody'])('builds the same feed JSON for viewer %s, page by page', async (viewer) => {
    let cursor: { at: number; id: string } | null = null;
    const seen: string[] = [];
    for (let page = 0; page < 10; page++) {
      const fromPg = JSON.parse(await readFeedPageJson(pg(), viewer, 2, cursor)) as { items: Array<{ id: string }>; next_cursor: string | null };
      expect(fromPg).toEqual(JSON.parse(sqliteFeedPageJson(liteHandle.engine.sqlite, viewer, 2, cursor)));
      // The object form (pulls) carries the same items and cursor.
      expect(await readFeedPage(pg(), viewer, 2, cursor)).toEqual(fromPg);
      seen.push(...fromPg.items.map((v) => v.id));
      if (!fromPg.next_cursor) break;
      const at = Buffer.from(fromPg.next_cursor, 'base64url').toString().split(':');
      cursor = { at: Number(at[0]), id: at[1]! };
    }
    // Newest first, the id breaking the tie; a video not ready only for its uploader.
    expect(seen).toEqual(['v1', 'v3', 'v2', ...(viewer === 'u2' ? ['v4'] : []), ...(viewer === 'u1' ? ['v5'] : []), 'v6']);
  });

  it('reads the same videos by id, with the viewer’s like', async () => {
    const ids = ['v1', 'v2', 'v3', 'v4', 'v5', 'missing'];
    for (const viewer of ['u1', 'u2', '']) {
      const byId = (items: Array<{ id: string }>) => [...items].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(await readVideosByIds(pg(), viewer, ids))).toEqual(byId(await readVideosByIds(lite(), viewer, ids)));
    }
    expect((await readVideosByIds(pg(), 'u1', ['v1']))[0]).toMatchObject({ liked_by_me: true, created_at: '2024-02-29T23:59:59.999Z' });
    expect(await readVideosByIds(pg(), 'u1', [])).toEqual([]);
  });

  it('pages comments the same way and reads them by id and per video', async () => {
    for (const limit of [1, 2, 50])
      expect(await readCommentsPage(pg(), 'u1', 'v1', limit, null)).toEqual(await readCommentsPage(lite(), 'u1', 'v1', limit, null));
    const first = await readCommentsPage(pg(), 'u1', 'v1', 2, null);
    const at = Buffer.from(first.next_cursor!, 'base64url').toString().split(':');
    const next = { at: Number(at[0]), id: at[1]! };
    expect(await readCommentsPage(pg(), 'u1', 'v1', 2, next)).toEqual(await readCommentsPage(lite(), 'u1', 'v1', 2, next));
    const ids = ['c0', 'c3', 'c6', 'nope'];
    const byId = (items: Array<{ id: string }>) => [...items].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(await readCommentsByIds(pg(), 'u1', ids))).toEqual(byId(await readCommentsByIds(lite(), 'u1', ids)));
    for (const videoIds of [['v2', 'v1'], ['v1', 'v6', 'v2'], []])
      expect(await readNewestComments(pg(), 'u1', videoIds, 3)).toEqual(await readNewestComments(lite(), 'u1', videoIds, 3));
  });
});
