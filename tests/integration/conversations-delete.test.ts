import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../helpers/users';
import { expectExactCount, startCast, type Conversations } from '../helpers/conversations';

// deleteComment through the real push, on SQLite and PostgreSQL (issue 29, docs/sync.md "Mutations"):
// who may delete, tombstones kept for their replies, a tombstone going with its last reply, a second
// deletion that changes nothing, an exact comments_count throughout, and a pinned comment's pin.

let c: Conversations;
let owner: TestUser;
let ann: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  ({ c, owner, ann, bob } = await startCast());
  admin = await createUser(c.t.deps, { name: 'Admin', isAdmin: true });
});
afterAll(async () => {
  await c?.close();
});

const remove = (user: TestUser, commentId: string) => c.once(user, 'deleteComment', { commentId });

describe('who may delete a comment', () => {
  it.each([
    ['its author', () => ann, false],
    ["the video's owner", () => owner, false],
    ['an admin (audited)', () => admin, true],
  ])('%s: the comment goes and comments_count follows', async (_who, deleter, audited) => {
    const videoId = await c.video(owner);
    const kept = await c.say(bob, videoId, 'stays');
    const gone = await c.say(ann, videoId, 'goes');
    expect(await remove(deleter(), gone)).toEqual({ id: 1, status: 'applied' });
    expect(await c.comment(gone)).toBeUndefined();
    const state = await c.videoState(videoId);
    expect(state.comments.map((r) => r.id)).toEqual([kept]);
    expect(state.comments_count).toBe(1);
    const audit = await c.t.deps.db.selectFrom('audit_log').select(['actor_id', 'action', 'details']).where('target', '=', gone).execute();
    expect(audit.map((a) => ({ ...a, details: JSON.parse(a.details ?? 'null') }))).toEqual(
      audited ? [{ actor_id: admin.id, action: 'comment.delete', details: { author_id: ann.id, video_id: videoId } }] : [],
    );
  });

  it("another member is refused forbidden and nothing changes, the comment's words included", async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'mine');
    await c.say(owner, videoId, 'a reply', top);
    const before = await c.videoState(videoId);
    for (const commentId of [top, before.comments[1]!.id]) {
      expect(await remove(bob, commentId)).toMatchObject({ status: 'rejected', error: { code: 'forbidden' } });
    }
    expect(await c.videoState(videoId)).toEqual(before);
  });

  it('a comment that does not exist: nothing to do, not an error', async () => {
    expect(await remove(ann, randomUUID())).toEqual({ id: 1, status: 'applied' });
  });
});

describe('tombstones', () => {
  it('a comment with replies becomes a tombstone: its words emptied, the replies kept, one fewer comment', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'words that must go');
    const replies = [await c.say(bob, videoId, 'one', top), await c.say(owner, videoId, 'two', top)];
    expect(await remove(ann, top)).toEqual({ id: 1, status: 'applied' });
    const state = await c.videoState(videoId);
    expect(state.comments[0]).toMatchObject({ id: top, deleted: 1, content: '', reply_count: 2 });
    expect(state.comments.slice(1).map((r) => [r.id, r.parent_id, r.deleted])).toEqual(replies.map((id) => [id, top, 0]));
    expect(state.comments_count).toBe(2);
    expectExactCount(state);
  });

  it("deleting a reply moves its thread's reply_count; the last reply under a tombstone takes the tombstone with it", async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    const [first, second] = [await c.say(bob, videoId, 'one', top), await c.say(bob, videoId, 'two', top)];
    await remove(ann, top);
    expect(await remove(bob, first)).toMatchObject({ status: 'applied' });
    expect(await c.comment(top)).toMatchObject({ deleted: 1, reply_count: 1 });
    expectExactCount(await c.videoState(videoId));
    expect(await remove(owner, second)).toMatchObject({ status: 'applied' });
    const state = await c.videoState(videoId);
    expect(state.comments).toEqual([]);
    expect(state.comments_count).toBe(0);
  });

  it("a reply's deletion under a live comment leaves the comment as it was, bar its reply_count", async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    const reply = await c.say(bob, videoId, 'reply', top);
    await remove(bob, reply);
    expect(await c.comment(top)).toMatchObject({ deleted: 0, content: 'top', reply_count: 0 });
    expect((await c.videoState(videoId)).comments_count).toBe(1);
  });

  it('deleting twice (a tombstone, a row gone, the same push replayed) is not an error and changes nothing', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    await c.say(bob, videoId, 'reply', top);
    const lone = await c.say(bob, videoId, 'lone');
    const clientId = randomUUID();
    const both = [
      { id: 1, name: 'deleteComment', args: { commentId: top } },
      { id: 2, name: 'deleteComment', args: { commentId: lone } },
    ];
    expect(await c.push(ann, both.slice(0, 1), clientId)).toEqual([{ id: 1, status: 'applied' }]);
    expect(await remove(bob, lone)).toMatchObject({ status: 'applied' });
    const after = await c.videoState(videoId);
    expect(after.comments_count).toBe(1);
    // The same device sends both again (one acknowledged, one new), and others try too.
    expect(await c.push(ann, both, clientId)).toEqual([
      { id: 1, status: 'duplicate' },
      { id: 2, status: 'applied' },
    ]);
    for (const [who, id] of [
      [owner, top],
      [admin, top],
      [bob, lone],
    ] as const)
      expect(await remove(who, id)).toMatchObject({ status: 'applied' });
    expect(await c.videoState(videoId)).toEqual(after);
  });

  it('comments_count stays exact through a mix of comments, replies and deletions by every role', async () => {
    const videoId = await c.video(owner);
    const tops = [await c.say(ann, videoId, 'a'), await c.say(bob, videoId, 'b'), await c.say(owner, videoId, 'c')];
    const replies = [await c.say(bob, videoId, 'a1', tops[0]), await c.say(owner, videoId, 'a2', tops[0]), await c.say(ann, videoId, 'b1', tops[1])];
    const steps: Array<[TestUser, string, number]> = [
      [ann, tops[0]!, 5],
      [admin, replies[2]!, 4],
      [owner, tops[1]!, 3],
      [bob, replies[0]!, 2],
      [owner, replies[1]!, 1],
      [owner, tops[2]!, 0],
    ];
    for (const [who, id, left] of steps) {
      expect(await remove(who, id)).toMatchObject({ status: 'applied' });
      const state = await c.videoState(videoId);
      expect(state.comments_count).toBe(left);
      expectExactCount(state);
    }
    expect((await c.videoState(videoId)).comments).toEqual([]);
  });
});

describe('a pinned comment', () => {
  it('deleted, it is unpinned: the video names no pinned comment', async () => {
    const videoId = await c.video(owner);
    const pinned = await c.say(ann, videoId, 'pin me');
    await c.say(bob, videoId, 'a reply keeps it as a tombstone', pinned);
    expect(await c.once(owner, 'pinComment', { commentId: pinned })).toMatchObject({ status: 'applied' });
    expect((await c.videoState(videoId)).pinned_comment_id).toBe(pinned);
    expect(await remove(ann, pinned)).toMatchObject({ status: 'applied' });
    const state = await c.videoState(videoId);
    expect(state.pinned_comment_id).toBeNull();
    expect(state.comments[0]).toMatchObject({ id: pinned, deleted: 1, pinned: 0 });
  });

  it('deleted without replies, the row goes and the pin with it', async () => {
    const videoId = await c.video(owner);
    const pinned = await c.say(bob, videoId, 'pin me');
    await c.once(owner, 'pinComment', { commentId: pinned });
    expect(await remove(owner, pinned)).toMatchObject({ status: 'applied' });
    expect(await c.videoState(videoId)).toEqual({ comments_count: 0, pinned_comment_id: null, comments: [] });
  });
});
