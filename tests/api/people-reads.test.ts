import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, insertMember, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';
import { testHandle } from '../helpers/test-handle';
import { planText, queryPlan } from '../helpers/query-plan';
import { testDialect } from '../helpers/test-database';
import { FeedPageSchema } from '#sync/protocol/messages';
import { followingPageIdsQuery } from '#server/people/video-reads';

// The people reads (server/people/routes.ts; docs/data-model.md, "People"). Follows are written
// straight into `follows` with their counters, as the follow mutation would leave them.

let t: TestApp;
let viewer: TestUser;
const T0 = 1_760_000_000_000;

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createUser(t.deps, { name: 'Viewer' });
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, user: TestUser = viewer) => call(t.app, 'GET', path, undefined, user.token);

async function follow(followerId: string, followeeId: string, at: number): Promise<void> {
  await t.deps.db.insertInto('follows').values({ follower_id: followerId, followee_id: followeeId, created_at: at }).execute();
  await sql`UPDATE profiles SET following_count = following_count + 1 WHERE id = ${followerId}`.execute(t.deps.db);
  await sql`UPDATE profiles SET followers_count = followers_count + 1 WHERE id = ${followeeId}`.execute(t.deps.db);
}

/** Every item of a paged read, following next_cursor; fails on a repeated id. */
async function allPages(path: string, user: TestUser = viewer): Promise<Array<Record<string, any>>> {
  const items: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res = await get(cursor ? `${path}?cursor=${cursor}` : path, user);
    expect(res.status, res.text).toBe(200);
    expect(res.json.items.length).toBeLessThanOrEqual(20);
    items.push(...res.json.items);
    cursor = res.json.next_cursor;
    if (!cursor) break;
  }
  expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  return items;
}

const handleOf = (u: { id: string }) => testHandle(u.id);

describe('GET /api/people/{handle}', () => {
  it('answers the member, their counts and the viewer flags, whatever the case or a leading @', async () => {
    const asha = await createUser(t.deps, { name: 'Asha' });
    await insertVideo(t.deps, asha.id, { media_status: 'ready' });
    await insertVideo(t.deps, asha.id, { media_status: 'ready' });
    await insertVideo(t.deps, asha.id, { media_status: 'processing' });
    await insertVideo(t.deps, asha.id, { media_status: 'failed', media_error: 'bad' });
    await follow(viewer.id, asha.id, T0);
    const res = await get(`/api/people/${encodeURIComponent(`@${handleOf(asha).toUpperCase()}`)}`);
    expect(res.status, res.text).toBe(200);
    const profile = await t.deps.db.selectFrom('profiles').select('created_at').where('id', '=', asha.id).executeTakeFirstOrThrow();
    expect(res.json).toEqual({
      id: asha.id,
      handle: handleOf(asha),
      name: 'Asha',
      created_at: new Date(Number(profile.created_at)).toISOString(),
      followers_count: 1,
      following_count: 0,
      videos_count: 2,
      viewer: { following: true, followed_by: false, blocked: false, muted: false },
    });
    await follow(asha.id, viewer.id, T0 + 1);
    expect((await get(`/api/people/${handleOf(asha)}`)).json.viewer).toEqual({ following: true, followed_by: true, blocked: false, muted: false });
    // Seen from Asha's side, and her own page.
    expect((await get(`/api/people/${handleOf(viewer)}`, asha)).json).toMatchObject({
      followers_count: 1,
      following_count: 1,
      viewer: { following: true, followed_by: true, blocked: false, muted: false },
    });
    expect((await get(`/api/people/${handleOf(asha)}`, asha)).json.viewer).toEqual({ following: false, followed_by: false, blocked: false, muted: false });
  });

  it('is 404 not_found for an unknown, suspended or unpaid member and 400 for what is no handle', async () => {
    const gone = await insertMember(t.deps.db, { isActive: false });
    const unpaid = await insertMember(t.deps.db, { status: 'pending_payment' });
    for (const handle of ['nobody_here', handleOf(gone), handleOf(unpaid), 'admin']) {
      const res = await get(`/api/people/${handle}`);
      expect([handle, res.status, res.json?.error?.code]).toEqual([handle, 404, 'not_found']);
      for (const list of ['videos', 'followers', 'following']) expect((await get(`/api/people/${handle}/${list}`)).status).toBe(404);
    }
    for (const bad of ['ab', '1abc', 'a'.repeat(31), 'bad-handle', '%20', 'x'.repeat(300), 'é_accent', 'a%00b']) {
      const res = await get(`/api/people/${bad}`);
      expect([bad, res.status, res.json?.error?.code]).toEqual([bad, 400, 'invalid_request']);
    }
  });

  it('is for signed-in members only', async () => {
    expect((await call(t.app, 'GET', `/api/people/${handleOf(viewer)}`)).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/feed/following')).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/people/suggested')).status).toBe(401);
  });

  it('refuses a cursor it never made with 400 invalid_cursor, on every list', async () => {
    for (const path of [
      `/api/people/${handleOf(viewer)}/videos`,
      `/api/people/${handleOf(viewer)}/followers`,
      `/api/people/${handleOf(viewer)}/following`,
      '/api/feed/following',
    ]) {
      for (const cursor of ['%%%', 'bm9wZQ', 'x'.repeat(201), btoa('99999999999999999:v')]) {
        const res = await get(`${path}?cursor=${cursor}`);
        expect([path, cursor, res.status, res.json?.error?.code]).toEqual([path, cursor, 400, 'invalid_cursor']);
      }
    }
  });
});

describe('a creator’s videos', () => {
  it('pages their ready videos newest first, ties included, in the feed’s item shape', async () => {
    const maker = await createUser(t.deps, { name: 'Maker' });
    const ready: string[] = [];
    // 45 ready videos, three at each instant: the keyset must split ties by id without gaps.
    for (let i = 0; i < 45; i++) ready.push(await insertVideo(t.deps, maker.id, { created_at: T0 + Math.floor(i / 3) * 1000, media_status: 'ready' }));
    await insertVideo(t.deps, maker.id, { created_at: T0 + 99_000, media_status: 'processing' });
    await insertVideo(t.deps, viewer.id, { created_at: T0 + 5000, media_status: 'ready' });
    const items = await allPages(`/api/people/${handleOf(maker)}/videos`);
    const expected = ready.map((id, i) => ({ id, at: Math.floor(i / 3) })).sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
    expect(items.map((v) => v.id)).toEqual(expected.map((e) => e.id));
    expect(FeedPageSchema.strict().safeParse({ items, next_cursor: null }).success).toBe(true);
    // The same item as /api/videos gives for that video.
    const first = (await get(`/api/people/${handleOf(maker)}/videos`)).json.items[0];
    expect(first).toEqual(await sameItemInFeedOf(viewer, first.id));
    expect(first).toMatchObject({ user_name: 'Maker', user_handle: handleOf(maker), media_status: 'ready', liked_by_me: false });
  });
});

describe('followers and following', () => {
  it('list people newest follow first across ties, with the viewer’s follow of each', async () => {
    const star = await createUser(t.deps, { name: 'Star' });
    const fans: string[] = [];
    for (let i = 0; i < 43; i++) {
      const fan = await insertMember(t.deps.db, { name: `Fan ${i}` });
      fans.push(fan.id);
      await follow(fan.id, star.id, T0 + Math.floor(i / 4) * 1000);
      await follow(star.id, fan.id, T0 + Math.floor(i / 5) * 1000);
    }
    const suspended = await insertMember(t.deps.db, { name: 'Suspended fan', isActive: false });
    await follow(suspended.id, star.id, T0 + 500_000);
    await follow(viewer.id, fans[7]!, T0);
    const order = (group: (i: number) => number) =>
      fans
        .map((id, i) => ({ id, at: group(i) }))
        .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
        .map((e) => e.id);
    const followers = await allPages(`/api/people/${handleOf(star)}/followers`);
    expect(followers.map((p) => p.id)).toEqual(order((i) => Math.floor(i / 4)));
    const following = await allPages(`/api/people/${handleOf(star)}/following`);
    expect(following.map((p) => p.id)).toEqual(order((i) => Math.floor(i / 5)));
    const seven = followers.find((p) => p.id === fans[7]);
    expect(seven).toEqual({ id: fans[7], handle: testHandle(fans[7]!), name: 'Fan 7', viewer: { following: true } });
    expect(followers.filter((p) => p.viewer.following).map((p) => p.id)).toEqual([fans[7]]);
    expect((await get(`/api/people/${handleOf(star)}`)).json).toMatchObject({ followers_count: 44, following_count: 43 });
  });
});

describe('GET /api/feed/following', () => {
  it('shows only the ready videos of the people the caller follows, newest first, without gaps or repeats', async () => {
    const reader = await createUser(t.deps, { name: 'Reader' });
    const followed = [await createUser(t.deps, { name: 'Followed A' }), await createUser(t.deps, { name: 'Followed B' })];
    const stranger = await createUser(t.deps, { name: 'Stranger' });
    expect((await get('/api/feed/following', reader)).json).toEqual({ items: [], next_cursor: null });
    const expected: Array<{ id: string; at: number }> = [];
    for (let i = 0; i < 50; i++) {
      const at = T0 + Math.floor(i / 4) * 1000;
      const owner = followed[i % 2]!;
      expected.push({ id: await insertVideo(t.deps, owner.id, { created_at: at, media_status: 'ready' }), at });
      await insertVideo(t.deps, stranger.id, { created_at: at, media_status: 'ready' });
      await insertVideo(t.deps, reader.id, { created_at: at, media_status: 'ready' });
    }
    await insertVideo(t.deps, followed[0]!.id, { created_at: T0 + 900_000, media_status: 'processing' });
    await insertVideo(t.deps, followed[1]!.id, { created_at: T0 + 900_000, media_status: 'failed', media_error: 'x' });
    for (const f of followed) await follow(reader.id, f.id, T0);
    const items = await allPages('/api/feed/following', reader);
    expected.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
    expect(items.map((v) => v.id)).toEqual(expected.map((e) => e.id));
    expect(new Set(items.map((v) => v.user_id))).toEqual(new Set(followed.map((f) => f.id)));
    expect(FeedPageSchema.strict().safeParse({ items, next_cursor: null }).success).toBe(true);
    expect(items[0]).toEqual(await sameItemInFeedOf(reader, items[0]!.id));
  });

  it('answers every odd cursor with a page or a 400, never a 500', async () => {
    for (const text of ['0:a', '9999999999999999:zzzz', '1:-', `${T0}:${'z'.repeat(64)}`]) {
      const res = await get(`/api/feed/following?cursor=${btoa(text).replace(/=+$/, '')}`);
      expect([text, res.status]).toEqual([text, 200]);
    }
  });
});

/** The /api/videos item of `id` as `user` sees it, walking the feed. */
async function sameItemInFeedOf(user: TestUser, id: string): Promise<unknown> {
  let cursor: string | null = null;
  for (;;) {
    const res = await get(`/api/videos?limit=50${cursor ? `&cursor=${cursor}` : ''}`, user);
    const hit = res.json.items.find((v: { id: string }) => v.id === id);
    if (hit) return hit;
    cursor = res.json.next_cursor;
    if (!cursor) return undefined;
  }
}

describe('GET /api/people/suggested', () => {
  it('offers the most-followed active members the caller does not follow, never the caller', async () => {
    const t2 = await createTestApp();
    try {
      const me = await createUser(t2.deps, { name: 'Me' });
      const people = [];
      for (let i = 0; i < 25; i++) people.push(await insertMember(t2.deps.db, { name: `P${i}` }));
      const counts = people.map((_, i) => (i * 7) % 25);
      for (const [i, p] of people.entries()) await sql`UPDATE profiles SET followers_count = ${counts[i]} WHERE id = ${p.id}`.execute(t2.deps.db);
      await sql`UPDATE profiles SET followers_count = 1000 WHERE id = ${me.id}`.execute(t2.deps.db);
      const top = people.map((p, i) => ({ id: p.id, n: counts[i]! })).sort((a, b) => b.n - a.n);
      // The caller follows the most-followed one; the second is suspended.
      await t2.deps.db.insertInto('follows').values({ follower_id: me.id, followee_id: top[0]!.id, created_at: T0 }).execute();
      await sql`UPDATE profiles SET is_active = 0 WHERE id = ${top[1]!.id}`.execute(t2.deps.db);
      const res = await call(t2.app, 'GET', '/api/people/suggested', undefined, me.token);
      expect(res.status).toBe(200);
      expect(res.json.next_cursor).toBeNull();
      expect(res.json.items.map((p: { id: string }) => p.id)).toEqual(top.slice(2, 22).map((p) => p.id));
      expect(res.json.items[0]).toEqual({ id: top[2]!.id, handle: testHandle(top[2]!.id), name: expect.any(String), viewer: { following: false } });
    } finally {
      await t2.close();
    }
  });
});

describe('plans', () => {
  const idsQuery = () => followingPageIdsQuery(testDialect, viewer.id, 21, { at: T0, id: 'v' }, false).compile(t.deps.db);

  it('reads the Following feed by videos_user_ready once per followed creator, never scanning videos', async () => {
    const plan = await queryPlan(t.deps.db, idsQuery());
    const text = planText(plan);
    expect(
      plan.filter((s) => s.table === 'w'),
      text,
    ).toEqual([{ kind: 'search', table: 'w', index: 'videos_user_ready' }]);
    expect(
      plan.filter((s) => s.kind === 'scan'),
      text,
    ).toEqual([]);
    // The caller's follows by an index on follower_id (follows_follower, or the primary key that starts with it).
    expect(plan.filter((s) => /^follows_(follower|pk)$|^sqlite_autoindex_follows/.test(s.index ?? '')).length, text).toBe(1);
  });

  it('takes at most a page per followed creator: a LIMIT inside the walk of each creator’s videos', async () => {
    const q = idsQuery();
    if (testDialect === 'sqlite') {
      const { rows } = await t.deps.db.executeQuery<{ id: number; parent: number; detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
      );
      const text = rows.map((r) => r.detail).join(' | ');
      const list = rows.find((r) => /^CORRELATED LIST SUBQUERY/.test(r.detail));
      expect(list, text).toBeDefined();
      // The walk of videos_user_ready runs inside it, once per followee, and stops at its LIMIT.
      expect(
        rows.filter((r) => r.parent === list!.id).map((r) => r.detail),
        text,
      ).toEqual([expect.stringMatching(/^SEARCH w USING COVERING INDEX videos_user_ready/)]);
    } else {
      interface Node {
        'Node Type': string;
        'Index Name'?: string;
        'Relation Name'?: string;
        Plans?: Node[];
      }
      const all = (n: Node): Node[] => [n, ...(n.Plans ?? []).flatMap(all)];
      // As queryPlan does: on these few rows a sort or a scan is cheapest for anything, so the question
      // is whether the indexes can serve it (what the planner picks at volume: tests/postgres/plans-people.test.ts).
      const rows = await t.deps.db.transaction().execute(async (trx) => {
        for (const setting of ['enable_seqscan', 'enable_sort', 'enable_bitmapscan']) await sql`SELECT set_config(${setting}, 'off', true)`.execute(trx);
        return (await trx.executeQuery<{ 'QUERY PLAN': Array<{ Plan: Node }> }>(CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${q.sql}`, [...q.parameters]))).rows;
      });
      const nodes = all(rows[0]!['QUERY PLAN'][0]!.Plan);
      // The LATERAL's own LIMIT: over videos_user_ready alone, not over the join with follows.
      const perCreator = nodes.filter(
        (n) =>
          n['Node Type'] === 'Limit' && all(n).some((m) => m['Index Name'] === 'videos_user_ready') && !all(n).some((m) => m['Relation Name'] === 'follows'),
      );
      expect(perCreator.length, JSON.stringify(rows[0])).toBe(1);
    }
  });
});
