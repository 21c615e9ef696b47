import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { freshTag, hashtagRow, insertTaggedVideo } from '../helpers/hashtag-videos';
import { planText, queryPlan } from '../helpers/query-plan';
import { AdminHashtagPageSchema } from '#sync/rest-api/discovery';
import { hashtagListQuery } from '#server/admin/hashtags';

// Hiding hashtags (server/admin/hashtags-routes.ts; docs/moderation.md, "Hidden hashtags"): admins
// only, audited once per real change, idempotent, and a hidden tag has no page and no search result
// (GET /api/search?type=hashtags, server/discovery/search-hashtags.ts).

let t: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.deps, { name: 'Admin', isAdmin: true });
  member = await createUser(t.deps, { name: 'Member' });
});
afterAll(async () => {
  await t?.close();
});

const post = (tag: string, action: 'hide' | 'unhide', user: TestUser = admin) =>
  call(t.app, 'POST', `/api/admin/hashtags/${encodeURIComponent(tag)}/${action}`, undefined, user.token);
const page = (tag: string) => call(t.app, 'GET', `/api/hashtags/${encodeURIComponent(tag)}`, undefined, member.token);
const searched = async (q: string) =>
  (await call(t.app, 'GET', `/api/search?type=hashtags&q=${encodeURIComponent(q)}`, undefined, member.token)).json.items.map((i: { tag: string }) => i.tag);
const auditOf = (tag: string) => t.deps.db.selectFrom('audit_log').select(['actor_id', 'action', 'target']).where('target', '=', tag).orderBy('id').execute();

describe('hiding a hashtag', () => {
  it('takes its page away until it is shown again, audited once per change, the same answer twice', async () => {
    const tag = freshTag('spam');
    for (let i = 0; i < 3; i++) await insertTaggedVideo(t.deps, member.id, { title: `buy now #${tag}` });
    expect((await page(tag)).json.items).toHaveLength(3);
    expect(await searched(tag)).toEqual([tag]);

    const hid = await post(tag.toUpperCase(), 'hide');
    expect(hid.status, hid.text).toBe(200);
    expect(hid.json).toEqual({ tag, hidden: true, videos_count: 3 });
    const gone = await page(tag);
    expect([gone.status, gone.json.error.code]).toEqual([404, 'not_found']);
    expect(await searched(tag)).toEqual([]);
    expect(await searched(tag.slice(0, 6))).not.toContain(tag);
    expect((await post(tag, 'hide')).json).toEqual(hid.json);
    expect(await auditOf(tag)).toEqual([{ actor_id: admin.id, action: 'hashtag.hide', target: tag }]);

    const shown = await post(tag, 'unhide');
    expect(shown.json).toEqual({ tag, hidden: false, videos_count: 3 });
    expect((await post(tag, 'unhide')).json).toEqual(shown.json);
    expect((await page(tag)).json.items).toHaveLength(3);
    expect(await searched(tag)).toEqual([tag]);
    expect((await auditOf(tag)).map((a) => a.action)).toEqual(['hashtag.hide', 'hashtag.unhide']);
  });

  it('keeps a tag nobody used yet hidden when a video first carries it; showing an unused tag writes nothing', async () => {
    const tag = freshTag('future');
    expect((await post(tag, 'hide')).json).toEqual({ tag, hidden: true, videos_count: 0 });
    await insertTaggedVideo(t.deps, member.id, { description: `#${tag}` });
    expect(await hashtagRow(t.deps.db, tag)).toEqual({ videos_count: 1, hidden: 1 });
    expect((await page(tag)).status).toBe(404);

    const never = freshTag('never');
    expect((await post(never, 'unhide')).json).toEqual({ tag: never, hidden: false, videos_count: 0 });
    expect(await hashtagRow(t.deps.db, never)).toBeUndefined();
    expect(await auditOf(never)).toEqual([]);
  });

  it('is for admins only, and refuses what is no tag with 400, changing nothing', async () => {
    const tag = freshTag('guarded');
    await insertTaggedVideo(t.deps, member.id, { title: `#${tag}` });
    const refused = await post(tag, 'hide', member);
    expect([refused.status, refused.json.error.code]).toEqual([403, 'not_admin']);
    expect((await call(t.app, 'POST', `/api/admin/hashtags/${tag}/hide`)).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/admin/hashtags', undefined, member.token)).status).toBe(403);
    expect(await hashtagRow(t.deps.db, tag)).toEqual({ videos_count: 1, hidden: 0 });
    for (const bad of ['123', 'two words', 'x'.repeat(51), '#cats']) {
      const res = await post(bad, 'hide');
      expect([bad, res.status, res.json?.error?.code]).toEqual([bad, 400, 'invalid_request']);
    }
    expect(await auditOf(tag)).toEqual([]);
  });
});

describe('the admin list of hashtags', () => {
  const list = (query: string, user: TestUser = admin) => call(t.app, 'GET', `/api/admin/hashtags?${query}`, undefined, user.token);

  /** Every row of a list, following next_cursor; fails on a repeated tag. */
  async function allOf(query: string): Promise<Array<{ tag: string; videos_count: number; hidden: boolean }>> {
    const items: Array<{ tag: string; videos_count: number; hidden: boolean }> = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const res = await list(`${query}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status, res.text).toBe(200);
      expect(AdminHashtagPageSchema.strict().safeParse(res.json).success, res.text).toBe(true);
      items.push(...res.json.items);
      cursor = res.json.next_cursor;
      if (!cursor) break;
    }
    expect(new Set(items.map((i) => i.tag)).size).toBe(items.length);
    return items;
  }

  it('lists tags by prefix in tag order, and the most used first when nothing is typed, with their hidden state', async () => {
    const stem = freshTag('trend');
    const tags: string[] = [];
    for (let i = 0; i < 17; i++) {
      const tag = `${stem}${String.fromCharCode(97 + i)}`;
      tags.push(tag);
      for (let k = 0; k <= i % 4; k++) await insertTaggedVideo(t.deps, member.id, { title: `#${tag}` });
    }
    await post(tags[0]!, 'hide');
    const byPrefix = await allOf(`q=${encodeURIComponent(`#${stem.toUpperCase()}`)}`);
    expect(byPrefix.map((r) => r.tag)).toEqual(tags);
    expect(byPrefix[0]).toEqual({ tag: tags[0], videos_count: 1, hidden: true });
    expect(byPrefix[3]).toEqual({ tag: tags[3], videos_count: 4, hidden: false });
    expect((await allOf(`q=${stem}c`)).map((r) => r.tag)).toEqual([tags[2]]);
    expect(await allOf(`q=${stem}zz`)).toEqual([]);

    // Nothing typed: every tag, the most used first, ties by tag from the end.
    const rows = await t.deps.db.selectFrom('hashtags').select(['tag', 'videos_count', 'hidden']).execute();
    const expected = rows
      .map((r) => ({ tag: r.tag, videos_count: Number(r.videos_count), hidden: Number(r.hidden) === 1 }))
      .sort((a, b) => b.videos_count - a.videos_count || (a.tag < b.tag ? 1 : -1));
    expect(await allOf('q=')).toEqual(expected);
  });

  it('refuses a cursor of the other kind or one it did not make', async () => {
    const first = await list('q=&limit=1');
    const byCount = first.json.next_cursor as string;
    expect(byCount).toBeTruthy();
    const prefixed = (await list('q=trend&limit=1')).json.next_cursor as string;
    expect(prefixed).toBeTruthy();
    for (const [q, cursor] of [
      ['trend', byCount],
      ['', prefixed],
      ['', 'bm9wZQ'],
      ['', '%%%'],
    ]) {
      const res = await list(`q=${q}&cursor=${cursor}`);
      expect([q, cursor, res.status, res.json?.error?.code]).toEqual([q, cursor, 400, 'invalid_cursor']);
    }
  });

  it('reads each list as one index range, without a sort', async () => {
    const cases = [
      [hashtagListQuery('tre', null, 20), /^(sqlite_autoindex_hashtags_1|hashtags_pkey)$/],
      [hashtagListQuery('tre', { kind: 'prefix', tag: 'trend' }, 20), /^(sqlite_autoindex_hashtags_1|hashtags_pkey)$/],
      [hashtagListQuery('', null, 20), /^hashtags_videos_count$/],
      [hashtagListQuery('', { kind: 'used', count: 3, tag: 'trend' }, 20), /^hashtags_videos_count$/],
    ] as const;
    for (const [query, index] of cases) {
      const steps = await queryPlan(t.deps.db, query.compile(t.deps.db));
      const plan = planText(steps);
      expect(
        steps.filter((s) => s.kind === 'sort' || s.kind === 'scan'),
        plan,
      ).toEqual([]);
      expect(steps, plan).toHaveLength(1);
      expect(steps[0]!.index, plan).toMatch(index);
    }
  });
});
