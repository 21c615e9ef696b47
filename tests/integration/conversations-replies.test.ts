import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExactCount, raceRounds, startCast, type Conversations } from '../helpers/conversations';
import type { TestUser } from '../helpers/users';

// addComment with parentId through the real push, on SQLite and PostgreSQL (issue 29, docs/sync.md
// "Mutations"): threads two deep, whom a reply answers, `parent_deleted`, replays, and a reply racing
// the deletion of its parent.

let c: Conversations;
let owner: TestUser;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ({ c, owner, ann, bob } = await startCast());
});
afterAll(async () => {
  await c?.close();
});

describe('addComment with parentId', () => {
  it('a reply stores its thread and whom it answers, and moves reply_count and comments_count by one', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'first!');
    const reply = await c.say(bob, videoId, 'welcome', top);
    expect(await c.comment(reply)).toMatchObject({ parent_id: top, reply_to_user_id: ann.id, content: 'welcome', deleted: 0 });
    expect(await c.comment(top)).toMatchObject({ parent_id: null, reply_to_user_id: null, reply_count: 1 });
    const state = await c.videoState(videoId);
    expect(state.comments_count).toBe(2);
    expectExactCount(state);
  });

  it('a reply to a reply folds into the top-level comment and keeps whom it answered', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    const first = await c.say(bob, videoId, 'a reply', top);
    const second = await c.say(ann, videoId, 'a reply to the reply', first);
    expect(await c.comment(second)).toMatchObject({ parent_id: top, reply_to_user_id: bob.id });
    expect(await c.comment(first)).toMatchObject({ reply_count: 0 });
    expect(await c.comment(top)).toMatchObject({ reply_count: 2 });
    expect((await c.videoState(videoId)).comments_count).toBe(3);
  });

  it('a reply to a live reply under a tombstone is taken: the tombstone keeps its thread', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'soon gone');
    const first = await c.say(bob, videoId, 'stays', top);
    expect(await c.once(ann, 'deleteComment', { commentId: top })).toMatchObject({ status: 'applied' });
    const second = await c.say(owner, videoId, 'still here', first);
    expect(await c.comment(second)).toMatchObject({ parent_id: top, reply_to_user_id: bob.id });
    expect(await c.comment(top)).toMatchObject({ deleted: 1, reply_count: 2 });
    expectExactCount(await c.videoState(videoId));
  });

  it.each([
    ['whose row is gone', false],
    ['that is a tombstone', true],
  ])('a reply to a comment %s is refused parent_deleted and nothing moves', async (_what, keepTombstone) => {
    const videoId = await c.video(owner);
    const parent = await c.say(ann, videoId, 'parent');
    if (keepTombstone) await c.say(bob, videoId, 'keeps the parent as a tombstone', parent);
    expect(await c.once(ann, 'deleteComment', { commentId: parent })).toMatchObject({ status: 'applied' });
    const before = await c.videoState(videoId);
    const commentId = randomUUID();
    expect(await c.once(bob, 'addComment', { commentId, videoId, content: 'too late', parentId: parent })).toMatchObject({
      status: 'rejected',
      error: { code: 'parent_deleted', message: 'The comment you replied to was deleted.' },
    });
    expect(await c.comment(commentId)).toBeUndefined();
    expect(await c.videoState(videoId)).toEqual(before);
    expectExactCount(before);
  });

  it('a reply to a deleted reply is refused parent_deleted; the thread is unchanged', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    const reply = await c.say(bob, videoId, 'gone soon', top);
    await c.say(owner, videoId, 'keeps the thread', top);
    expect(await c.once(bob, 'deleteComment', { commentId: reply })).toMatchObject({ status: 'applied' });
    const before = await c.videoState(videoId);
    expect(await c.once(ann, 'addComment', { commentId: randomUUID(), videoId, content: 'hm', parentId: reply })).toMatchObject({
      status: 'rejected',
      error: { code: 'parent_deleted' },
    });
    expect(await c.videoState(videoId)).toEqual(before);
  });

  it('a parent on another video is refused invalid and nothing moves', async () => {
    const [here, there] = [await c.video(owner), await c.video(owner)];
    const parent = await c.say(ann, there, 'elsewhere');
    const [beforeHere, beforeThere] = [await c.videoState(here), await c.videoState(there)];
    expect(await c.once(bob, 'addComment', { commentId: randomUUID(), videoId: here, content: 'lost', parentId: parent })).toMatchObject({
      status: 'rejected',
      error: { code: 'invalid' },
    });
    expect([await c.videoState(here), await c.videoState(there)]).toEqual([beforeHere, beforeThere]);
  });

  it('a replay of a reply (same client, same mutation, or the same comment id again) has no effect', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    await c.replayed(bob, 'addComment', { commentId: randomUUID(), videoId, content: 'once', parentId: top });
    const state = await c.videoState(videoId);
    expect(state.comments).toHaveLength(2);
    expect(state.comments_count).toBe(2);
    expect(await c.comment(top)).toMatchObject({ reply_count: 1 });
  });
});

const later = async <T>(ms: number, run: () => Promise<T>): Promise<T> => {
  if (ms) await new Promise((resolve) => setTimeout(resolve, ms));
  return run();
};

describe('a reply and the deletion of its parent at the same moment', () => {
  it('20 times: the reply stands under a tombstone, or it was refused parent_deleted and the parent is gone; never an orphan, never a deadlock', async () => {
    await raceRounds(
      20,
      async (round, timed) => {
        const videoId = await c.video(owner);
        const parent = await c.say(ann, videoId, `parent ${round}`);
        const replyId = randomUUID();
        // Either may leave first, by up to 3 ms, so both orders (and a true tie) happen.
        const [replied, deleted] = await timed(() =>
          Promise.all([
            later(round % 2 ? round % 4 : 0, () => c.once(bob, 'addComment', { commentId: replyId, videoId, content: `reply ${round}`, parentId: parent })),
            later(round % 2 ? 0 : round % 4, () => c.once(ann, 'deleteComment', { commentId: parent })),
          ]),
        );
        expect(deleted).toMatchObject({ status: 'applied' });
        const state = await c.videoState(videoId);
        expectExactCount(state);
        if (replied.status === 'applied') {
          expect(state.comments).toEqual([
            expect.objectContaining({ id: parent, deleted: 1, content: '', reply_count: 1 }),
            expect.objectContaining({ id: replyId, parent_id: parent, deleted: 0 }),
          ]);
        } else {
          expect(replied).toMatchObject({ status: 'rejected', error: { code: 'parent_deleted' } });
          expect(state.comments).toEqual([]);
        }
      },
      // The deletion takes the video's row first, as the reply's push does; taken the other way, most rounds deadlocked.
      2,
    );
  });
});
