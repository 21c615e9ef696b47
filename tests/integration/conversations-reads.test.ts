import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommentsPageSchema, type CommentItem } from '#sync/protocol/messages';
import { startConversations, type Conversations } from '../helpers/conversations';
import { call } from '../helpers/test-app';
import type { TestUser } from '../helpers/users';

// GET /api/videos/{id}/comments on SQLite and PostgreSQL (issue 29, docs/sync.md, "A video's
// comments"): the pinned comment first, then the top-level ones newest first; ?parent= a thread
// oldest first; liked_by_me for the caller; tombstones; mentions of members only; 404 and 400 for
// what is not a list. And the pull's lists (server/sync/pull.ts) carry the same items. Rows are
// written through the real push.

let c: Conversations;
let owner: TestUser;
let ann: TestUser;
let bob: TestUser;
const handles = new Map<string, string>();

beforeAll(async () => {
  c = await startConversations();
  [owner, ann, bob] = await Promise.all([c.member('Owner'), c.member('Ann'), c.member('Bob')]);
  for (const m of [owner, ann, bob])
    handles.set(m.id, (await c.t.deps.db.selectFrom('profiles').select('handle').where('id', '=', m.id).executeTakeFirstOrThrow()).handle);
});
afterAll(async () => {
  await c?.close();
});

const handleOf = (m: TestUser) => handles.get(m.id)!;
const get = (user: TestUser, path: string) => call(c.t.app, 'GET', path, undefined, user.token);

/** A page that must be answered: checked against the fixed shape. */
async function page(user: TestUser, videoId: string, query = '') {
  const res = await get(user, `/api/videos/${videoId}/comments${query ? `?${query}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return CommentsPageSchema.parse(res.json);
}

/** Every page of a list, `limit` at a time: the items in the order listed. */
async function all(user: TestUser, videoId: string, limit: number, parent?: string): Promise<CommentItem[]> {
  const items: CommentItem[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 50; n++) {
    const q = new URLSearchParams({ limit: String(limit), ...(parent ? { parent } : {}), ...(cursor ? { cursor } : {}) });
    const p = await page(user, videoId, q.toString());
    items.push(...p.items);
    cursor = p.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('the pages never end');
}

describe('the top-level list', () => {
  it('lists the pinned comment first, once, then the others newest first, page after page, without replies', async () => {
    const videoId = await c.video(owner);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await c.say([ann, bob, owner][i % 3]!, videoId, `comment ${i}`));
    await c.say(bob, videoId, 'a reply', ids[1]);
    expect(await c.once(owner, 'pinComment', { commentId: ids[2]! })).toMatchObject({ status: 'applied' });
    const newestFirst = [...ids].reverse().filter((id) => id !== ids[2]);
    for (const limit of [1, 2, 4, 50]) {
      const items = await all(ann, videoId, limit);
      expect(items.map((x) => x.id)).toEqual([ids[2], ...newestFirst]);
      expect(items.map((x) => x.pinned)).toEqual([true, false, false, false, false, false]);
    }
    // The pin comes on the first page beyond its limit, never on a next page.
    const first = await page(ann, videoId, 'limit=2');
    expect(first.items.map((x) => x.id)).toEqual([ids[2], ids[5], ids[4]]);
    expect(first.items.find((x) => x.id === ids[1])).toBeUndefined();
    const top = (await page(ann, videoId)).items.find((x) => x.id === ids[1])!;
    expect(top).toMatchObject({ reply_count: 1, parent_id: null, name: 'Bob', handle: handleOf(bob), content: 'comment 1', deleted: false });
    // Unpinned, it takes its place by time again.
    expect(await c.once(owner, 'unpinComment', { commentId: ids[2]! })).toMatchObject({ status: 'applied' });
    expect((await all(ann, videoId, 2)).map((x) => x.id)).toEqual([...ids].reverse());
  });

  it('says liked_by_me for the caller and counts the likes', async () => {
    const videoId = await c.video(owner);
    const liked = await c.say(owner, videoId, 'like me');
    const other = await c.say(owner, videoId, 'not me');
    expect(await c.once(ann, 'likeComment', { commentId: liked })).toMatchObject({ status: 'applied' });
    const byId = async (user: TestUser) => new Map((await page(user, videoId)).items.map((x) => [x.id, x]));
    expect((await byId(ann)).get(liked)).toMatchObject({ liked_by_me: true, likes_count: 1 });
    expect((await byId(ann)).get(other)).toMatchObject({ liked_by_me: false, likes_count: 0 });
    expect((await byId(bob)).get(liked)).toMatchObject({ liked_by_me: false, likes_count: 1 });
  });

  it('lists a deleted comment with replies as a tombstone, its thread still readable', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'soon gone @' + handleOf(bob));
    const reply = await c.say(bob, videoId, 'stays', top);
    expect(await c.once(ann, 'deleteComment', { commentId: top })).toMatchObject({ status: 'applied' });
    const [tomb] = (await page(bob, videoId)).items;
    expect(tomb).toMatchObject({ id: top, deleted: true, name: '', handle: '', content: '', mentions: [], reply_count: 1, user_id: ann.id });
    expect((await page(bob, videoId, `parent=${top}`)).items.map((x) => [x.id, x.content])).toEqual([[reply, 'stays']]);
  });
});

describe('a thread (?parent=)', () => {
  it('lists the replies oldest first, page after page, a reply to a reply folded in with whom it answers', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    const other = await c.say(ann, videoId, 'another thread');
    const replies = [await c.say(bob, videoId, 'r0', top)];
    replies.push(await c.say(ann, videoId, 'r1', replies[0]));
    replies.push(await c.say(owner, videoId, 'r2', top));
    replies.push(await c.say(bob, videoId, 'r3', top));
    await c.say(bob, videoId, 'elsewhere', other);
    for (const limit of [1, 2, 3, 50]) expect((await all(owner, videoId, limit, top)).map((x) => x.id)).toEqual(replies);
    const [, r1] = (await page(owner, videoId, `parent=${top}`)).items;
    expect(r1).toMatchObject({ parent_id: top, reply_to_user_id: bob.id, reply_to_handle: handleOf(bob), name: 'Ann', content: 'r1' });
    const next = await page(owner, videoId, `parent=${top}&limit=3`);
    expect(next.next_cursor).not.toBeNull();
    expect((await page(owner, videoId, `parent=${top}&limit=3&cursor=${next.next_cursor}`)).items.map((x) => x.id)).toEqual([replies[3]]);
  });

  it('answers 404 for a parent that is not a top-level comment of the video, 400 for a malformed one', async () => {
    const videoId = await c.video(owner);
    const elsewhere = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    const reply = await c.say(bob, videoId, 'reply', top);
    const foreign = await c.say(ann, elsewhere, 'on another video');
    const expect404 = async (path: string, message: RegExp) => {
      const res = await get(ann, path);
      expect(res.status, res.text).toBe(404);
      expect(res.json.error).toMatchObject({ code: 'not_found', message: expect.stringMatching(message) });
    };
    await expect404(`/api/videos/${videoId}/comments?parent=${reply}`, /reply/);
    await expect404(`/api/videos/${videoId}/comments?parent=${foreign}`, /not on this video/);
    await expect404(`/api/videos/${videoId}/comments?parent=no-such-comment`, /no longer exists/);
    await expect404(`/api/videos/no-such-video/comments`, /video no longer exists/);
    await expect404(`/api/videos/no-such-video/comments?parent=${top}`, /video no longer exists/);
    for (const [path, code] of [
      [`/api/videos/${videoId}/comments?parent=${encodeURIComponent('bad id!')}`, 'invalid_request'],
      [`/api/videos/${videoId}/comments?parent=${'x'.repeat(65)}`, 'invalid_request'],
      [`/api/videos/${encodeURIComponent('bad id!')}/comments`, 'invalid_request'],
      [`/api/videos/${videoId}/comments?parent=${top}&cursor=bm9wZQ`, 'invalid_cursor'],
    ]) {
      const res = await get(ann, path!);
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json.error.code).toBe(code);
    }
  });
});

describe('mentions', () => {
  it('names the members among the @handles, not unknown handles nor e-mail addresses; one’s own handle is fine', async () => {
    const videoId = await c.video(owner);
    const text = `hey @${handleOf(bob).toUpperCase()} and @nobody_at_all, mail ${handleOf(owner)}@${handleOf(bob)}.test, says @${handleOf(ann)}.`;
    const top = await c.say(ann, videoId, text);
    const reply = await c.say(bob, videoId, `thanks @${handleOf(ann)} @${handleOf(ann)}`, top);
    const [item] = (await page(owner, videoId)).items;
    expect(item).toMatchObject({ id: top, content: text, mentions: [handleOf(bob), handleOf(ann)] });
    expect((await page(owner, videoId, `parent=${top}`)).items[0]).toMatchObject({ id: reply, mentions: [handleOf(ann)] });
  });
});

describe('the pull’s comments', () => {
  it('sends the pinned comment first and the newest top-level ones, then changed comments, replies included, with their mentions', async () => {
    const videoId = await c.video(owner);
    const oldest = await c.say(ann, videoId, `pin me @${handleOf(owner)}`);
    const newer = await c.say(bob, videoId, 'newer');
    expect(await c.once(owner, 'pinComment', { commentId: oldest })).toMatchObject({ status: 'applied' });
    const full = await c.pull(ann, { open_videos: [videoId], load_comments: [videoId] });
    expect(full.comments.map((x: CommentItem) => x.id)).toEqual([oldest, newer]);
    expect(full.comments[0]).toMatchObject({ pinned: true, mentions: [handleOf(owner)] });
    const reply = await c.say(owner, videoId, `hi @${handleOf(ann)} and @${handleOf(bob)}`, oldest);
    const changed = await c.pull(ann, { cursor: full.cursor, open_videos: [videoId] });
    const got = new Map<string, CommentItem>(changed.comments.map((x: CommentItem) => [x.id, x]));
    expect(got.get(reply)).toMatchObject({ parent_id: oldest, mentions: [handleOf(ann), handleOf(bob)] });
    expect(got.get(oldest)).toMatchObject({ reply_count: 1, pinned: true });
  });
});
