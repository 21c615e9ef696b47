import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { freshTag, hashtagRow, insertTaggedVideo } from '../helpers/hashtag-videos';
import { planText, queryPlan } from '../helpers/query-plan';
import { testDialect } from '../helpers/test-database';
import { HashtagPageSchema } from '#sync/rest-api/discovery';
import { encodeFeedCursor } from '#sync/protocol/feed-cursor';
import { hashtagVideosQuery } from '#server/discovery/hashtag-page';
import { SQLITE_LIKES_TO_TAGS } from '#db/migrations/0022_hashtags_top_trigger';

// GET /api/hashtags/{tag} (server/discovery/hashtag-routes.ts; docs/decisions/0025-discovery.md,
// "Hashtags"): both orders paged without gaps or repeats, the tag's count exact through every kind of
// deletion, and a viewer's blocks and mutes and suspended authors left out.

let t: TestApp;
let viewer: TestUser;
let admin: TestUser;
const T0 = 1_760_000_000_000;

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createUser(t.deps, { name: 'Viewer' });
  admin = await createUser(t.deps, { name: 'Admin', isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, user: TestUser = viewer) => call(t.app, 'GET', path, undefined, user.token);
const pagePath = (tag: string, sort?: string) => `/api/hashtags/${encodeURIComponent(tag)}${sort ? `?sort=${sort}` : ''}`;

/** Every item of a tag in `sort` order, following next_cursor; fails on a repeated id. */
async function allPages(tag: string, sort?: 'recent' | 'top', user: TestUser = viewer): Promise<Array<Record<string, any>>> {
  const items: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const base = pagePath(tag, sort);
    const res = await get(cursor ? `${base}${sort ? '&' : '?'}cursor=${cursor}` : base, user);
    expect(res.status, res.text).toBe(200);
    expect(HashtagPageSchema.strict().safeParse(res.json).success, res.text).toBe(true);
    expect(res.json.items.length).toBeLessThanOrEqual(20);
    items.push(...res.json.items);
    cursor = res.json.next_cursor;
    if (!cursor) break;
  }
  expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  return items;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The tag's count and its page agree, and are `n`. */
async function expectCount(tag: string, n: number): Promise<void> {
  expect(Number((await hashtagRow(t.deps.db, tag))?.videos_count ?? 0)).toBe(n);
  const page = await get(pagePath(tag));
  expect(page.json.videos_count).toBe(n);
  expect((await allPages(tag)).length).toBe(n);
}

describe('a hashtag page', () => {
  it('pages the newest first across ties, in the feed item shape, and counts the tag', async () => {
    const tag = freshTag('sunset');
    const maker = await createUser(t.deps, { name: 'Maker' });
    const made: Array<{ id: string; at: number }> = [];
    // 45 videos, three at each instant: the keyset must split ties by id without gaps.
    for (let i = 0; i < 45; i++) {
      const at = T0 + Math.floor(i / 3) * 1000;
      made.push({ id: await insertTaggedVideo(t.deps, maker.id, { title: `Evening #${tag.toUpperCase()}`, created_at: at }), at });
    }
    await insertTaggedVideo(t.deps, maker.id, { title: 'No tag here', created_at: T0 + 99_000 });
    const items = await allPages(tag);
    expect(items.map((v) => v.id)).toEqual(made.sort((a, b) => b.at - a.at || byId(a, b)).map((m) => m.id));
    const first = await get(pagePath(tag));
    expect(first.json).toMatchObject({ tag, videos_count: 45 });
    expect(first.json.items[0]).toMatchObject({ user_name: 'Maker', media_status: 'ready', liked_by_me: false, title: `Evening #${tag.toUpperCase()}` });
    // The param is normalized as tags are filed: upper case and full-width letters find the same page.
    const wide = [...tag].map((ch) => (/[a-z]/.test(ch) ? String.fromCodePoint(ch.codePointAt(0)! - 0x61 + 0xff41) : ch)).join('');
    for (const typed of [tag.toUpperCase(), wide])
      expect((await get(pagePath(typed))).json.items.map((v: { id: string }) => v.id)).toEqual(items.slice(0, 20).map((v) => v.id));
  });

  it('pages the most liked first, then the newest, ties included, following likes as they change', async () => {
    const tag = freshTag('dance');
    const maker = await createUser(t.deps, { name: 'Dancer' });
    const made: Array<{ id: string; at: number; likes: number }> = [];
    for (let i = 0; i < 50; i++) {
      const at = T0 + Math.floor(i / 2) * 1000;
      const id = await insertTaggedVideo(t.deps, maker.id, { description: `move #${tag}`, created_at: at });
      made.push({ id, at, likes: i % 5 });
    }
    // Likes arrive after filing: the trigger of db/migrations/0021_hashtags_top.ts moves the tag's keys.
    for (const m of made) await t.deps.db.updateTable('videos').set({ likes_count: m.likes }).where('id', '=', m.id).execute();
    const expected = () => [...made].sort((a, b) => b.likes - a.likes || b.at - a.at || byId(a, b)).map((m) => m.id);
    expect((await allPages(tag, 'top')).map((v) => v.id)).toEqual(expected());
    expect((await allPages(tag, 'top'))[0]!.likes_count).toBe(4);
    // And again, up and down (an unlike, a like): one key per video, each with the video's count.
    for (const [i, m] of made.entries()) {
      m.likes = (m.likes * 3 + i) % 7;
      await t.deps.db.updateTable('videos').set({ likes_count: m.likes }).where('id', '=', m.id).execute();
    }
    expect((await allPages(tag, 'top')).map((v) => v.id)).toEqual(expected());
    const keys = await t.deps.db.selectFrom('video_hashtags_top').select(['video_id', 'likes_count']).where('tag', '=', tag).execute();
    expect(keys.map((k) => `${k.video_id} ${k.likes_count}`).sort()).toEqual(made.map((m) => `${m.id} ${m.likes}`).sort());
    // The recent order of the same tag is untouched by likes.
    expect((await allPages(tag, 'recent')).map((v) => v.id)).toEqual([...made].sort((a, b) => b.at - a.at || byId(a, b)).map((m) => m.id));
  });

  it('finds a tag in any script, URL-encoded', async () => {
    const maker = await createUser(t.deps, { name: 'Priya' });
    const tag = `नमस्ते${randomUUID().slice(0, 4).replace(/\d/g, 'क')}`;
    const id = await insertTaggedVideo(t.deps, maker.id, { title: `सुबह #${tag}` });
    const res = await get(pagePath(tag));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ tag, videos_count: 1, next_cursor: null });
    expect(res.json.items.map((v: { id: string }) => v.id)).toEqual([id]);
  });

  it('answers an empty page for a tag nobody used yet, 400 for what is no tag, a bad sort or a cursor it did not make', async () => {
    const unused = freshTag('nobody');
    expect((await get(pagePath(unused))).json).toEqual({ tag: unused, videos_count: 0, items: [], next_cursor: null });
    expect(await hashtagRow(t.deps.db, unused)).toBeUndefined();
    for (const bad of ['123', 'two words', 'x'.repeat(51), '#cats', 'a-b', 'c#']) {
      const res = await get(pagePath(bad));
      expect([bad, res.status, res.json?.error?.code]).toEqual([bad, 400, 'invalid_request']);
    }
    expect((await get(`${pagePath('cats')}?sort=old`)).json.error.code).toBe('invalid_request');
    // A page of the other order, the feed's own cursor and garbage are all refused.
    const tag = freshTag('paged');
    const maker = await createUser(t.deps);
    for (let i = 0; i < 21; i++) await insertTaggedVideo(t.deps, maker.id, { title: `#${tag}`, created_at: T0 + i });
    const recent = (await get(pagePath(tag, 'recent'))).json.next_cursor as string;
    const top = (await get(pagePath(tag, 'top'))).json.next_cursor as string;
    expect(recent && top).toBeTruthy();
    const refused: Array<[string, string]> = [
      ['top', recent],
      ['recent', top],
      ['recent', encodeFeedCursor(T0, 'abc')],
      ['top', encodeFeedCursor(T0, 'abc')],
      ['recent', '%%%'],
      ['recent', 'x'.repeat(201)],
    ];
    for (const [sort, cursor] of refused) {
      const res = await get(`${pagePath(tag, sort)}&cursor=${cursor}`);
      expect([sort, cursor, res.status, res.json?.error?.code]).toEqual([sort, cursor, 400, 'invalid_cursor']);
    }
    expect((await get(`${pagePath(tag, 'top')}&cursor=${top}`)).json.items).toHaveLength(1);
  });

  it('is for signed-in members only', async () => {
    expect((await call(t.app, 'GET', pagePath('cats'))).status).toBe(401);
  });
});

describe('who a hashtag page leaves out', () => {
  it('leaves out the videos of a member blocked either way or muted by the viewer, and of a suspended author', async () => {
    const tag = freshTag('city');
    const [shown, blocked, blocker, muted, suspended] = await Promise.all(
      ['Shown', 'Blocked', 'Blocker', 'Muted', 'Suspended'].map((name) => createUser(t.deps, { name })),
    );
    const ids = new Map<string, string>();
    for (const [i, u] of [shown, blocked, blocker, muted, suspended].entries())
      ids.set(u!.name, await insertTaggedVideo(t.deps, u!.id, { title: `#${tag}`, created_at: T0 + i }));
    const before = await allPages(tag);
    expect(before).toHaveLength(5);
    const now = t.deps.now();
    await t.deps.db
      .insertInto('blocks')
      .values([
        { blocker_id: viewer.id, blocked_id: blocked!.id, created_at: now },
        { blocker_id: blocker!.id, blocked_id: viewer.id, created_at: now },
      ])
      .execute();
    await t.deps.db.insertInto('mutes').values({ muter_id: viewer.id, muted_id: muted!.id, created_at: now }).execute();
    expect((await call(t.app, 'POST', `/api/admin/users/${suspended!.id}/suspend`, undefined, admin.token)).status).toBe(200);
    const after = await allPages(tag);
    expect(after.map((v) => v.id)).toEqual([ids.get('Shown')]);
    // The count is the tag's, not the viewer's.
    expect((await get(pagePath(tag))).json.videos_count).toBe(5);
    // Someone with no blocks sees all but the suspended author's; the blocked member does not see the viewer's side.
    const other = await createUser(t.deps);
    expect((await allPages(tag, 'top', other)).map((v) => v.user_name).sort()).toEqual(['Blocked', 'Blocker', 'Muted', 'Shown']);
    const reactivated = await call(t.app, 'POST', `/api/admin/users/${suspended!.id}/reactivate`, undefined, admin.token);
    expect(reactivated.status).toBe(200);
    expect((await allPages(tag)).map((v) => v.user_name).sort()).toEqual(['Shown', 'Suspended']);
  });
});

describe('a tag’s count after deletions', () => {
  const push = (user: TestUser, videoId: string) =>
    call(
      t.app,
      'POST',
      '/api/sync/push',
      { client_id: randomUUID(), mutations: [{ id: 1, name: 'deleteVideo', args: { videoId }, client_time: t.deps.now() }] },
      user.token,
    );

  it('stays exact when the owner deletes a video, an admin deletes one and an account is deleted', async () => {
    const [a, b] = [freshTag('trip'), freshTag('food')];
    const [owner, member] = [await createUser(t.deps, { name: 'Owner' }), await createUser(t.deps, { name: 'Member' })];
    const own = await insertTaggedVideo(t.deps, owner.id, { title: `#${a} and #${b}`, created_at: T0 + 1 });
    const byAdmin = await insertTaggedVideo(t.deps, owner.id, { title: `#${a}`, description: `#${b} #${a}`, created_at: T0 + 2 });
    const kept = await insertTaggedVideo(t.deps, owner.id, { title: `#${a}`, created_at: T0 + 3 });
    for (let i = 0; i < 3; i++) await insertTaggedVideo(t.deps, member.id, { title: `#${b} #${a}`, created_at: T0 + 10 + i });
    await expectCount(a, 6);
    await expectCount(b, 5);

    const pushed = await push(owner, own);
    expect(pushed.json.results[0].status, pushed.text).toBe('applied');
    await expectCount(a, 5);
    await expectCount(b, 4);

    expect((await call(t.app, 'DELETE', `/api/admin/videos/${byAdmin}`, undefined, admin.token)).status).toBe(200);
    await expectCount(a, 4);
    await expectCount(b, 3);

    expect((await call(t.app, 'DELETE', `/api/admin/users/${member.id}`, undefined, admin.token)).status).toBe(200);
    await expectCount(a, 1);
    await expectCount(b, 0);
    expect((await allPages(a)).map((v) => v.id)).toEqual([kept]);
    const { rows } = await sql<{ n: number; top: number }>`SELECT count(*) AS n,
      (SELECT count(*) FROM video_hashtags_top WHERE tag IN (${a}, ${b})) AS top FROM video_hashtags WHERE tag IN (${a}, ${b})`.execute(t.deps.db);
    expect([Number(rows[0]!.n), Number(rows[0]!.top)]).toEqual([1, 1]);
    expect((await allPages(a, 'top')).map((v) => v.id)).toEqual([kept]);
  });
});

describe('the page’s plans', () => {
  // The top order is the table video_hashtags_top (db/migrations/0021_hashtags_top.ts) read by its
  // primary key: on SQLite a WITHOUT ROWID table's own b-tree, a search that names no index.
  it.each([
    ['recent', 'video_hashtags_recent'],
    ['top', testDialect === 'sqlite' ? undefined : 'video_hashtags_top_pk'],
  ] as const)('reads the %s order as one range of %s, joined by keys, with no sort (filtered or not)', async (sort, index) => {
    for (const filtered of [false, true]) {
      const cursor = sort === 'top' ? ({ sort, likes: 3, at: T0, id: 'v1' } as const) : ({ sort, at: T0, id: 'v1' } as const);
      for (const after of [null, cursor]) {
        const steps = await queryPlan(t.deps.db, hashtagVideosQuery(viewer.id, 'cats', sort, after, filtered).compile(t.deps.db));
        const plan = planText(steps);
        expect(
          steps.filter((s) => s.kind === 'sort' || s.kind === 'scan'),
          plan,
        ).toEqual([]);
        expect(steps[0], plan).toEqual({ kind: 'search', table: 'h', ...(index ? { index } : {}) });
      }
    }
  });

  // The likes trigger's statement of each engine (SQLite's of db/migrations/0022_hashtags_top_trigger.ts,
  // PostgreSQL's function of 0021): the video's tags by video_hashtags_video, each key of the top order
  // by the whole primary key (SQLite used only its first column with 0021's row-value form).
  it('moves a liked video’s keys of the top order by key', async () => {
    const [video, was, now, at] = ['v1', 3, 4, T0];
    const sqliteText = SQLITE_LIKES_TO_TAGS.replaceAll('new.likes_count', String(now))
      .replaceAll('old.likes_count', String(was))
      .replaceAll('new.created_at', String(at))
      .replaceAll('new.id', `'${video}'`);
    const text =
      testDialect === 'sqlite'
        ? sql.raw(sqliteText)
        : sql`UPDATE video_hashtags_top t SET likes_count = ${now} FROM video_hashtags h
            WHERE h.video_id = ${video} AND t.tag = h.tag AND t.likes_count = ${was} AND t.created_at = h.created_at AND t.video_id = ${video}`;
    if (testDialect === 'sqlite') {
      const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${sql.raw(sqliteText)}`.execute(t.deps.db);
      expect(rows.map((r) => r.detail)).toContain('SEARCH video_hashtags_top USING PRIMARY KEY (tag=? AND likes_count=? AND created_at=? AND video_id=?)');
    }
    const steps = await queryPlan(t.deps.db, text.compile(t.deps.db));
    const plan = planText(steps);
    expect(
      steps.filter((s) => s.kind !== 'search'),
      plan,
    ).toEqual([]);
    expect(
      steps.find((s) => s.index === 'video_hashtags_video'),
      plan,
    ).toBeDefined();
    const top = steps.filter((s) => s.table === 'video_hashtags_top' || s.table === 't');
    expect(top, plan).toEqual([{ kind: 'search', table: top[0]?.table, ...(testDialect === 'sqlite' ? {} : { index: 'video_hashtags_top_pk' }) }]);
  });
});
