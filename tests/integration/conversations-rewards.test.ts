import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recomputeScores, standingsOf } from '#server/rewards/recompute';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';

// Issue 29's server effects beyond notifications, through the real push on both engines: replies
// and comment likes earn no prize points and a deleted top-level comment takes its pair's points
// (docs/rewards.md), an admin's deletion of another member's comment is audited, and an account's
// deletion takes its comments by deleteComment's rules (the others' replies stay under a tombstone,
// every count exact).

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ MEDIA_WORKER: 'off', PUSH_RATE_BURST: '100000' });
  admin = await createUser(t.deps, { name: 'Admin', isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

async function push(user: TestUser, name: string, args: Record<string, unknown>): Promise<{ status: string; error?: { code: string } }> {
  const res = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [{ id: 1, name, args }] }, user.token);
  expect(res.status).toBe(200);
  return res.json.results[0];
}
async function say(user: TestUser, videoId: string, content: string, parentId?: string): Promise<string> {
  const commentId = randomUUID();
  t.advance(1);
  expect(await push(user, 'addComment', { commentId, videoId, content, ...(parentId ? { parentId } : {}) })).toMatchObject({ status: 'applied' });
  return commentId;
}
const applied = async (user: TestUser, name: string, args: Record<string, unknown>) =>
  expect(await push(user, name, args)).toMatchObject({ status: 'applied' });
/** One member per name, as a tuple of the same length. */
const people = <N extends string[]>(...names: N) => Promise.all(names.map((name) => createUser(t.deps, { name }))) as Promise<{ [K in keyof N]: TestUser }>;
const points = async (user: TestUser) => {
  const r = await t.deps.db.selectFrom('scores').selectAll().where('user_id', '=', user.id).executeTakeFirst();
  return { creator: Number(r?.creator_points ?? 0), viewer: Number(r?.viewer_points ?? 0) };
};
/** The maintained counters equal the leaderboards computed from scratch from the rows. */
async function expectConsistent(): Promise<void> {
  const counters = standingsOf((await t.deps.db.selectFrom('scores').selectAll().execute()).map((r) => ({ ...r })));
  expect(counters).toEqual(standingsOf(await recomputeScores(t.deps.db)));
}
const comment = (id: string) =>
  t.deps.db
    .selectFrom('comments')
    .select(['id', 'user_id', 'content', 'parent_id', 'reply_count', 'likes_count', 'deleted'])
    .where('id', '=', id)
    .executeTakeFirst();

/** comments_count counts the rows that are not tombstones; reply_count a thread's rows; likes_count the likes. */
async function expectExactCounts(videoId: string): Promise<void> {
  const video = await t.deps.db.selectFrom('videos').select('comments_count').where('id', '=', videoId).executeTakeFirstOrThrow();
  const rows = await t.deps.db
    .selectFrom('comments')
    .select(['id', 'parent_id', 'reply_count', 'likes_count', 'deleted'])
    .where('video_id', '=', videoId)
    .execute();
  expect(Number(video.comments_count)).toBe(rows.filter((r) => Number(r.deleted) === 0).length);
  const likes = await t.deps.db.selectFrom('comment_likes').select('comment_id').where('video_id', '=', videoId).execute();
  for (const r of rows) {
    expect(Number(r.reply_count), `reply_count of ${r.id}`).toBe(rows.filter((x) => x.parent_id === r.id).length);
    expect(Number(r.likes_count), `likes_count of ${r.id}`).toBe(likes.filter((l) => l.comment_id === r.id).length);
  }
}

describe('prize points', () => {
  it('a top-level comment earns as before; replies and comment likes earn nothing', async () => {
    const [owner, ann, bob] = await people('Owner', 'Ann', 'Bob');
    const videoId = await insertVideo(t.deps, owner.id);
    const top = await say(ann, videoId, 'top');
    expect(await points(ann)).toEqual({ creator: 0, viewer: 1 });
    expect(await points(owner)).toEqual({ creator: 1, viewer: 0 });

    // Bob's replies (to Ann, to Ann's reply) and likes of her comments: no point for anyone.
    const reply = await say(bob, videoId, 'a reply', top);
    await say(bob, videoId, 'another', reply);
    await applied(bob, 'likeComment', { commentId: top });
    await applied(owner, 'likeComment', { commentId: reply });
    expect(await points(bob)).toEqual({ creator: 0, viewer: 0 });
    expect(await points(ann)).toEqual({ creator: 0, viewer: 1 });
    expect(await points(owner)).toEqual({ creator: 1, viewer: 0 });
    await expectConsistent();

    // Bob's first top-level comment after his replies is his first pair on the video.
    await say(bob, videoId, 'now top-level');
    expect(await points(bob)).toEqual({ creator: 0, viewer: 1 });
    expect(await points(owner)).toEqual({ creator: 2, viewer: 0 });
    await expectConsistent();
  });

  it("deleting the member's only top-level comment takes the pair's points, also when it stays as a tombstone; a reply's deletion moves none", async () => {
    const [owner, ann, bob, cy] = await people('Owner', 'Ann', 'Bob', 'Cy');
    const v1 = await insertVideo(t.deps, owner.id);
    const v2 = await insertVideo(t.deps, owner.id);
    const lone = await say(ann, v1, 'alone');
    const withReply = await say(bob, v2, 'replied to');
    const reply = await say(cy, v2, 'a reply', withReply);
    expect(await points(owner)).toEqual({ creator: 2, viewer: 0 });

    await applied(cy, 'deleteComment', { commentId: reply });
    expect(await points(owner)).toEqual({ creator: 2, viewer: 0 });
    const reply2 = await say(cy, v2, 'again', withReply);

    await applied(ann, 'deleteComment', { commentId: lone });
    expect(await points(ann)).toEqual({ creator: 0, viewer: 0 });
    expect(await points(owner)).toEqual({ creator: 1, viewer: 0 });

    await applied(bob, 'deleteComment', { commentId: withReply });
    expect(await comment(withReply)).toMatchObject({ deleted: 1, content: '' });
    expect(await comment(reply2)).toMatchObject({ parent_id: withReply });
    expect(await points(bob)).toEqual({ creator: 0, viewer: 0 });
    expect(await points(owner)).toEqual({ creator: 0, viewer: 0 });
    await expectConsistent();
  });

  it('deleting the earliest of two top-level comments keeps the pair (moved to the other); deleting the other then takes it', async () => {
    const [owner, ann] = await people('Owner', 'Ann');
    const videoId = await insertVideo(t.deps, owner.id);
    const first = await say(ann, videoId, 'one');
    const second = await say(ann, videoId, 'two');
    await applied(owner, 'deleteComment', { commentId: first });
    expect(await points(ann)).toEqual({ creator: 0, viewer: 1 });
    await expectConsistent();
    await applied(owner, 'deleteComment', { commentId: second });
    expect(await points(ann)).toEqual({ creator: 0, viewer: 0 });
    expect(await points(owner)).toEqual({ creator: 0, viewer: 0 });
    await expectConsistent();
  });

  it('a video deleted with threads and tombstones on it leaves every counter exact', async () => {
    const [owner, ann, bob] = await people('Owner', 'Ann', 'Bob');
    const videoId = await insertVideo(t.deps, owner.id);
    const top = await say(ann, videoId, 'top');
    await say(bob, videoId, 'reply', top);
    await say(bob, videoId, 'bob top');
    await applied(ann, 'deleteComment', { commentId: top });
    await applied(owner, 'deleteVideo', { videoId });
    expect([await points(owner), await points(ann), await points(bob)]).toEqual([
      { creator: 0, viewer: 0 },
      { creator: 0, viewer: 0 },
      { creator: 0, viewer: 0 },
    ]);
    await expectConsistent();
  });
});

describe("an admin's deletion of a comment", () => {
  const auditOf = (target: string) =>
    t.deps.db
      .selectFrom('audit_log')
      .select(['actor_id', 'action', 'target', 'details'])
      .where('target', '=', target)
      .where('action', '=', 'comment.delete')
      .execute();

  it("of another member's comment is audited (without its words); the author's and the owner's deletions are not", async () => {
    const [owner, ann] = await people('Owner', 'Ann');
    const videoId = await insertVideo(t.deps, owner.id);
    const [byAdmin, byAuthor, byOwner] = [await say(ann, videoId, 'rude words'), await say(ann, videoId, 'mine'), await say(ann, videoId, 'on my video')];
    await applied(admin, 'deleteComment', { commentId: byAdmin });
    await applied(ann, 'deleteComment', { commentId: byAuthor });
    await applied(owner, 'deleteComment', { commentId: byOwner });

    const [entry, ...more] = await auditOf(byAdmin);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actor_id: admin.id, action: 'comment.delete', target: byAdmin });
    expect(JSON.parse(entry!.details!)).toEqual({ author_id: ann.id, video_id: videoId });
    expect(await auditOf(byAuthor)).toEqual([]);
    expect(await auditOf(byOwner)).toEqual([]);
    // The audit page lists it for the admins.
    const page = await call(t.app, 'GET', '/api/admin/audit', undefined, admin.token);
    expect(page.status).toBe(200);
    expect(page.json.items.find((i: { target: string }) => i.target === byAdmin)).toMatchObject({ action: 'comment.delete', actor_id: admin.id });
  });

  it("an admin's own comment deleted by themselves, and a second deletion, write no audit row", async () => {
    const [owner] = await people('Owner');
    const videoId = await insertVideo(t.deps, owner.id);
    const own = await say(admin, videoId, 'admin speaking');
    await applied(admin, 'deleteComment', { commentId: own });
    await applied(admin, 'deleteComment', { commentId: own });
    expect(await auditOf(own)).toEqual([]);
  });
});

describe("an account's deletion", () => {
  it("keeps the others' replies under a tombstone, takes the member's replies, likes and emptied tombstones, with every count exact", async () => {
    const [owner, ann, bob, cy] = await people('Owner', 'Ann', 'Bob', 'Cy');
    const videoId = await insertVideo(t.deps, owner.id);
    // Ann's thread with Bob's reply and her own: a tombstone with Bob's reply stays.
    const annTop = await say(ann, videoId, 'ann speaks');
    const bobsReply = await say(bob, videoId, 'bob answers', annTop);
    const annsOwnReply = await say(ann, videoId, 'ann again', annTop);
    // Ann's thread with only her own reply goes whole.
    const annAlone = await say(ann, videoId, 'nobody listens');
    await say(ann, videoId, 'still nobody', annAlone);
    // Ann's reply in Bob's thread; and Cy's thread, already a tombstone, kept only by Ann's reply.
    const bobTop = await say(bob, videoId, 'bob speaks');
    const annInBob = await say(
      ann,
      videoId,
      `@${(await t.deps.db.selectFrom('profiles').select('handle').where('id', '=', bob.id).executeTakeFirstOrThrow()).handle} yes`,
      bobTop,
    );
    const cyTop = await say(cy, videoId, 'cy speaks');
    await say(ann, videoId, 'ann in cy', cyTop);
    await applied(cy, 'deleteComment', { commentId: cyTop });
    expect(await comment(cyTop)).toMatchObject({ deleted: 1 });
    // Ann's likes of others' comments, and others' likes of hers; Ann's comment pinned by the owner.
    await applied(ann, 'likeComment', { commentId: bobTop });
    await applied(ann, 'likeComment', { commentId: bobsReply });
    await applied(bob, 'likeComment', { commentId: annTop });
    await applied(owner, 'pinComment', { commentId: annTop });
    await expectExactCounts(videoId);
    const quotingAnn = await t.deps.db.selectFrom('notifications').select('id').where('comment_id', 'in', [annTop, annsOwnReply, annInBob]).execute();
    expect(quotingAnn.length).toBeGreaterThan(0);
    const { json: before } = await call(t.app, 'POST', '/api/sync/pull', { cursor: null }, bob.token);

    expect((await call(t.app, 'DELETE', `/api/admin/users/${ann.id}`, undefined, admin.token)).status).toBe(200);

    const left = await t.deps.db
      .selectFrom('comments')
      .select(['id', 'user_id', 'content', 'deleted', 'pinned', 'parent_id'])
      .where('video_id', '=', videoId)
      .execute();
    expect(left.filter((c) => c.user_id === ann.id)).toEqual([]);
    expect(left.map((c) => c.id).sort()).toEqual([annTop, bobsReply, bobTop].sort());
    // The tombstone: no words, no pin, kept under the video's owner (a comment must name a member).
    expect(await comment(annTop)).toMatchObject({ deleted: 1, content: '', reply_count: 1, user_id: owner.id });
    expect(await comment(bobsReply)).toMatchObject({ parent_id: annTop, deleted: 0 });
    expect(await comment(bobTop)).toMatchObject({ reply_count: 0, likes_count: 0 });
    expect(await comment(bobsReply)).toMatchObject({ likes_count: 0 });
    const video = await t.deps.db.selectFrom('videos').select(['comments_count', 'pinned_comment_id']).where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(Number(video.comments_count)).toBe(2);
    expect(video.pinned_comment_id).toBeNull();
    await expectExactCounts(videoId);
    expect(await t.deps.db.selectFrom('comment_likes').select('comment_id').where('user_id', '=', ann.id).execute()).toEqual([]);
    expect(await t.deps.db.selectFrom('notifications').select('id').where('comment_id', 'in', [annTop, annsOwnReply, annInBob]).execute()).toEqual([]);

    // Bob's devices hear of it: his notifications quoting Ann go, and the thread's comments changed.
    const { json: after } = await call(t.app, 'POST', '/api/sync/pull', { cursor: before.cursor }, bob.token);
    const bobsQuoting = quotingAnn.map((n) => n.id).filter((id) => (before.notifications as Array<{ id: string }>).some((n) => n.id === id));
    expect(bobsQuoting.length).toBeGreaterThan(0);
    expect([...after.deleted_notifications].sort()).toEqual(expect.arrayContaining(bobsQuoting));
    // The list a member reads: the tombstone shows no author and no words; Bob's reply under it.
    const list = await call(t.app, 'GET', `/api/videos/${videoId}/comments`, undefined, bob.token);
    expect(list.status).toBe(200);
    const tomb = (list.json.items as Array<{ id: string }>).find((c) => c.id === annTop);
    expect(tomb).toMatchObject({ deleted: true, content: '', name: '', handle: '', reply_count: 1 });
    await expectConsistent();
  });
});
