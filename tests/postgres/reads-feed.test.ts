import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, openSqlite, type DbHandle } from '#db/connect';
import { readFeedPage, readFeedPageJson, readVia, readVideosByIds, sqliteFeedPageJson } from '#server/videos/feed-rows';
import { readCommentsByIds, readCommentsPage, readNewestComments, readThreadPage } from '#server/videos/comment-rows';
import { testDatabaseEnv } from '../helpers/test-database';

// The PostgreSQL reads of server/videos/feed-rows-postgres.ts and comment-rows-postgres.ts answer exactly what the SQLite ones
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

async function insertProfile(db: DbHandle['db'], p: { id: string; name: string }): Promise<void> {
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
}

async function seed(handle: DbHandle): Promise<void> {
  const { db } = handle;
  for (const p of profiles) await insertProfile(db, p);
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
  // c1 pinned; c2 a tombstone kept for its reply; c0's thread of three, one answering a reply, with
  // mentions of members, of nobody and an e-mail address; the viewers' likes.
  await db.updateTable('comments').set({ pinned: 1 }).where('id', '=', 'c1').execute();
  await db.updateTable('videos').set({ pinned_comment_id: 'c1' }).where('id', '=', 'v1').execute();
  await db.updateTable('comments').set({ deleted: 1, content: '', reply_count: 1 }).where('id', '=', 'c2').execute();
  await db.updateTable('comments').set({ reply_count: 3, content: 'Hi @Member_U2 and @nobody_here, mail u1@member_u1.test' }).where('id', '=', 'c0').execute();
  const replies = [
    { id: 'r1', parent_id: 'c0', user_id: 'u1', reply_to_user_id: 'u2', at: T0 + 5, content: 'me: @member_u1' },
    { id: 'r2', parent_id: 'c0', user_id: 'u2', reply_to_user_id: 'u1', at: T0 + 5, content: `@member_u1. ${ODD_NAME}` },
    { id: 'r0', parent_id: 'c0', user_id: 'u2', reply_to_user_id: 'u2', at: T0 + 9, content: 'last' },
    { id: 'r3', parent_id: 'c2', user_id: 'u1', reply_to_user_id: 'u2', at: T0 + 1, content: 'under a tombstone' },
  ];
  for (const r of replies)
    await db
      .insertInto('comments')
      .values({
        id: r.id,
        video_id: 'v1',
        user_id: r.user_id,
        parent_id: r.parent_id,
        reply_to_user_id: r.reply_to_user_id,
        content: r.content,
        created_at: r.at,
      })
      .execute();
  await db
    .insertInto('comment_likes')
    .values([
      { comment_id: 'c0', user_id: 'u1', video_id: 'v1', created_at: 1 },
      { comment_id: 'r1', user_id: 'u2', video_id: 'v1', created_at: 1 },
      { comment_id: 'c1', user_id: 'u2', video_id: 'v1', created_at: 1 },
    ])
    .execute();
}

type CommentPage = Awaited<ReturnType<typeof readCommentsPage>>;
const decode = (cursor: string) => {
  const at = Buffer.from(cursor, 'base64url').toString().split(':');
  return { at: Number(at[0]), id: at[1]! };
};
/** Every page of a list, asserting the two engines answer each alike; the ids in the order listed. */
async function walk(read: (cursor: { at: number; id: string } | null, engine: 'pg' | 'lite') => Promise<CommentPage>): Promise<CommentPage['items']> {
  const items: CommentPage['items'] = [];
  let cursor: { at: number; id: string } | null = null;
  for (let n = 0; n < 20; n++) {
    const page = await read(cursor, 'pg');
    expect(page).toEqual(await read(cursor, 'lite'));
    items.push(...page.items);
    if (!page.next_cursor) return items;
    cursor = decode(page.next_cursor);
  }
  throw new Error('the pages never end');
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

  const via = (engine: 'pg' | 'lite') => (engine === 'pg' ? pg() : lite());

  it.each(['u1', 'u2', 'nobody'])('pages the top-level comments alike for viewer %s: the pinned one first, then newest first', async (viewer) => {
    for (const limit of [1, 2, 50]) {
      const items = await walk((cursor, engine) => readCommentsPage(via(engine), viewer, 'v1', limit, cursor));
      // c0, c3 at T0; c1, c4 at T0 + 1; c2 at T0 + 2: the id breaks the ties, the pin comes first once.
      expect(items.map((c) => c.id)).toEqual(['c1', 'c2', 'c4', 'c3', 'c0']);
      expect(items.map((c) => c.pinned)).toEqual([true, false, false, false, false]);
      expect(items.find((c) => c.id === 'c0')).toMatchObject({ liked_by_me: viewer === 'u1', reply_count: 3, mentions: ['member_u2'] });
      expect(items.find((c) => c.id === 'c1')?.liked_by_me).toBe(viewer === 'u2');
    }
  });

  it('reads a tombstone without its words or author', async () => {
    const { items } = await readCommentsPage(pg(), 'u1', 'v1', 50, null);
    expect(items.find((c) => c.id === 'c2')).toMatchObject({ deleted: true, name: '', handle: '', content: '', mentions: [], reply_count: 1 });
  });

  it.each(['u1', 'u2'])('pages a thread alike for viewer %s, oldest first', async (viewer) => {
    for (const limit of [1, 2, 50]) {
      const items = await walk((cursor, engine) => readThreadPage(via(engine), viewer, 'c0', limit, cursor));
      expect(items.map((c) => c.id)).toEqual(['r1', 'r2', 'r0']);
      expect(items[0]).toMatchObject({
        parent_id: 'c0',
        reply_to_user_id: 'u2',
        reply_to_handle: 'member_u2',
        mentions: ['member_u1'],
        liked_by_me: viewer === 'u2',
      });
      expect(items[1]?.mentions).toEqual(['member_u1']);
    }
    expect((await readThreadPage(pg(), viewer, 'c2', 50, null)).items.map((c) => c.id)).toEqual(['r3']);
  });

  it('reads comments by id, replies included, and each video’s full list with its pin first', async () => {
    const ids = ['c0', 'c3', 'c6', 'r1', 'r3', 'nope'];
    const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
    for (const viewer of ['u1', 'u2']) {
      const fromPg = byId(await readCommentsByIds(pg(), viewer, ids));
      expect(fromPg).toEqual(byId(await readCommentsByIds(lite(), viewer, ids)));
      expect(fromPg.map((c) => c.id)).toEqual(['c0', 'c3', 'c6', 'r1', 'r3']);
      expect(fromPg.find((c) => c.id === 'r1')?.mentions).toEqual(['member_u1']);
    }
    for (const videoIds of [['v2', 'v1'], ['v1', 'v6', 'v2'], []])
      for (const perVideo of [1, 3])
        expect(await readNewestComments(pg(), 'u1', videoIds, perVideo)).toEqual(await readNewestComments(lite(), 'u1', videoIds, perVideo));
    // The pin and the newest others of v1, then v2's, the pin not repeated; of the replies, only the viewer's own.
    const full = await readNewestComments(pg(), 'u2', ['v1', 'v2'], 2);
    expect(full.filter((c) => !c.parent_id).map((c) => c.id)).toEqual(['c1', 'c2', 'c4', 'c5', 'c6']);
    const replies = full.filter((c) => c.parent_id);
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.every((c) => c.user_id === 'u2')).toBe(true);
  });
  // Last: the rows below would change what the reads above answer.
  it('leaves out alike, on both engines, the members a viewer blocked or who blocked them, and the videos of those they muted', async () => {
    for (const { db } of [pgHandle, liteHandle]) {
      await insertProfile(db, { id: 'u3', name: 'Mia' });
      await db.insertInto('blocks').values({ blocker_id: 'u1', blocked_id: 'u2', created_at: 1 }).execute();
      await db.insertInto('mutes').values({ muter_id: 'u3', muted_id: 'u2', created_at: 1 }).execute();
    }
    const feed = async (viewer: string) => {
      const fromPg = JSON.parse(await readFeedPageJson(pg(), viewer, 50, null)) as { items: Array<{ id: string }> };
      expect(fromPg).toEqual(JSON.parse(sqliteFeedPageJson(liteHandle.engine.sqlite, viewer, 50, null)));
      expect(await readFeedPage(pg(), viewer, 50, null)).toEqual(fromPg);
      expect(await readFeedPage(lite(), viewer, 50, null)).toEqual(fromPg);
      return fromPg.items.map((v) => v.id);
    };
    // u1 blocked u2: each loses the other's videos; u3 muted u2: u3 loses u2's videos, u2 loses nothing of u3's.
    expect(await feed('u1')).toEqual(['v1', 'v5']);
    expect(await feed('u2')).toEqual(['v3', 'v2', 'v4', 'v6']);
    expect(await feed('u3')).toEqual(['v1']);
    const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
    for (const viewer of ['u1', 'u2', 'u3']) {
      const ids = ['v1', 'v2', 'v3'];
      expect(byId(await readVideosByIds(pg(), viewer, ids))).toEqual(byId(await readVideosByIds(lite(), viewer, ids)));
    }
    expect((await readVideosByIds(pg(), 'u1', ['v1', 'v2', 'v3'])).map((v) => v.id)).toEqual(['v1']);

    // Comments: a block hides the other's comments and the replies under them; a mute hides none.
    const top = async (viewer: string) => (await walk((cursor, engine) => readCommentsPage(via(engine), viewer, 'v1', 2, cursor))).map((c) => c.id);
    expect(await top('u1')).toEqual(['c1', 'c3']);
    expect(await top('u2')).toEqual(['c2', 'c4', 'c0']);
    expect(await top('u3')).toEqual(['c1', 'c2', 'c4', 'c3', 'c0']);
    expect((await walk((cursor, engine) => readThreadPage(via(engine), 'u2', 'c0', 1, cursor))).map((c) => c.id)).toEqual(['r2', 'r0']);
    const ids = ['c0', 'c3', 'c6', 'r1', 'r2', 'r3'];
    for (const viewer of ['u1', 'u2', 'u3']) {
      expect(byId(await readCommentsByIds(pg(), viewer, ids))).toEqual(byId(await readCommentsByIds(lite(), viewer, ids)));
      expect(await readNewestComments(pg(), viewer, ['v1', 'v2'], 3)).toEqual(await readNewestComments(lite(), viewer, ['v1', 'v2'], 3));
    }
    // u1's own replies r1 and r3 answer u2's c0 and c2: they go with them.
    expect((await readCommentsByIds(pg(), 'u1', ids)).map((c) => c.id)).toEqual(['c3']);
    expect((await readNewestComments(pg(), 'u1', ['v1'], 50)).map((c) => c.id)).toEqual(['c1', 'c3']);
  });
});
