import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceRounds, startCast, type Conversations } from '../helpers/conversations';
import type { TestUser } from '../helpers/users';

// likeComment/unlikeComment and pinComment/unpinComment through the real push, on SQLite and
// PostgreSQL (issue 29, docs/sync.md "Mutations"): one like per member and comment, exact under
// replays and thirty members at once; one pinned comment per video, by its owner only.

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

const likeRows = async (commentId: string) =>
  (await c.t.deps.db.selectFrom('comment_likes').select('user_id').where('comment_id', '=', commentId).execute()).map((r) => r.user_id).sort();

/** The video's only comment went, and its likes with it. */
async function expectAllGone(videoId: string, commentId: string): Promise<void> {
  expect(await c.videoState(videoId)).toEqual({ comments_count: 0, pinned_comment_id: null, comments: [] });
  expect(await likeRows(commentId)).toEqual([]);
}

describe('likeComment and unlikeComment', () => {
  it('one like per member and comment: a replay, another device or a second like count once', async () => {
    const videoId = await c.video(owner);
    const commentId = await c.say(ann, videoId, 'like me');
    await c.replayed(bob, 'likeComment', { commentId });
    expect(await c.once(ann, 'likeComment', { commentId })).toMatchObject({ status: 'applied' });
    expect(await c.comment(commentId)).toMatchObject({ likes_count: 2 });
    expect(await likeRows(commentId)).toEqual([ann.id, bob.id].sort());
  });

  it('an unlike takes one like back once; its replay, and an unlike of nothing, change nothing', async () => {
    const videoId = await c.video(owner);
    const commentId = await c.say(ann, videoId, 'like me');
    await c.once(bob, 'likeComment', { commentId });
    await c.once(owner, 'likeComment', { commentId });
    await c.replayed(bob, 'unlikeComment', { commentId });
    expect(await c.once(ann, 'unlikeComment', { commentId })).toMatchObject({ status: 'applied' });
    expect(await c.comment(commentId)).toMatchObject({ likes_count: 1 });
    expect(await likeRows(commentId)).toEqual([owner.id]);
  });

  it('likes and unlikes in one push, in turn, leave the last word', async () => {
    const videoId = await c.video(owner);
    const commentId = await c.say(ann, videoId, 'on and off');
    const names = ['likeComment', 'unlikeComment', 'likeComment', 'likeComment', 'unlikeComment', 'likeComment'];
    const results = await c.push(
      bob,
      names.map((name, i) => ({ id: i + 1, name, args: { commentId } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(names.length).fill('applied'));
    expect(await c.comment(commentId)).toMatchObject({ likes_count: 1 });
    expect(await likeRows(commentId)).toEqual([bob.id]);
  });

  it('30 members liking one comment at once: exactly 30; then 30 unlikes at once: 0', async () => {
    const videoId = await c.video(owner);
    const commentId = await c.say(ann, videoId, 'popular');
    const crowd = await c.members(30, 'Fan');
    const all = (name: string) => Promise.all(crowd.map((m) => c.push(m, [{ id: 1, name, args: { commentId } }], randomUUID())));
    const liked = await all('likeComment');
    expect(liked.flat().map((r) => r.status)).toEqual(Array(30).fill('applied'));
    expect(await c.comment(commentId)).toMatchObject({ likes_count: 30 });
    expect(await likeRows(commentId)).toHaveLength(30);
    const unliked = await all('unlikeComment');
    expect(unliked.flat().map((r) => r.status)).toEqual(Array(30).fill('applied'));
    expect(await c.comment(commentId)).toMatchObject({ likes_count: 0 });
    expect(await likeRows(commentId)).toEqual([]);
  });

  it('liking a deleted comment (gone, or a tombstone) is refused not_found and changes nothing', async () => {
    const videoId = await c.video(owner);
    const gone = await c.say(ann, videoId, 'gone');
    const tombstone = await c.say(ann, videoId, 'tombstone');
    await c.say(owner, videoId, 'keeps it', tombstone);
    await c.once(ann, 'deleteComment', { commentId: gone });
    await c.once(ann, 'deleteComment', { commentId: tombstone });
    const before = await c.videoState(videoId);
    for (const commentId of [gone, tombstone, randomUUID()]) {
      expect(await c.once(bob, 'likeComment', { commentId })).toMatchObject({ status: 'rejected', error: { code: 'not_found' } });
    }
    expect(await c.videoState(videoId)).toEqual(before);
    expect(await likeRows(tombstone)).toEqual([]);
  });

  it('a like racing the deletion of its comment, 10 times: the comment and its likes go, the like applied first or refused not_found; never a 500 nor a deadlock', async () => {
    await raceRounds(10, async (round, timed) => {
      const videoId = await c.video(owner);
      const commentId = await c.say(ann, videoId, `going ${round}`);
      const [liked, deleted] = await timed(() => Promise.all([c.once(bob, 'likeComment', { commentId }), c.once(ann, 'deleteComment', { commentId })]));
      expect(deleted).toMatchObject({ status: 'applied' });
      if (liked.status !== 'applied') expect(liked).toMatchObject({ status: 'rejected', error: { code: 'not_found' } });
      await expectAllGone(videoId, commentId);
    });
  });

  it('an unlike racing the deletion of its comment, 10 times: both apply, never a 500 nor a deadlock', async () => {
    await raceRounds(10, async (round, timed) => {
      const videoId = await c.video(owner);
      const commentId = await c.say(ann, videoId, `going ${round}`);
      await c.once(bob, 'likeComment', { commentId });
      const results = await timed(() => Promise.all([c.once(bob, 'unlikeComment', { commentId }), c.once(ann, 'deleteComment', { commentId })]));
      expect(results.map((r) => r.status)).toEqual(['applied', 'applied']);
      await expectAllGone(videoId, commentId);
    });
  });

  it("a comment's deletion takes its likes; the unlike that follows is no error", async () => {
    const videoId = await c.video(owner);
    const commentId = await c.say(ann, videoId, 'liked, then gone');
    await c.once(bob, 'likeComment', { commentId });
    await c.once(ann, 'deleteComment', { commentId });
    expect(await likeRows(commentId)).toEqual([]);
    expect(await c.once(bob, 'unlikeComment', { commentId })).toMatchObject({ status: 'applied' });
  });
});

describe('pinComment and unpinComment', () => {
  const pinnedOf = async (videoId: string) => {
    const state = await c.videoState(videoId);
    return { video: state.pinned_comment_id, rows: state.comments.filter((r) => r.pinned === 1).map((r) => r.id) };
  };

  it("only the video's owner pins or unpins; others are refused forbidden and nothing changes", async () => {
    const videoId = await c.video(owner);
    const commentId = await c.say(ann, videoId, 'pin me');
    for (const who of [ann, bob]) {
      expect(await c.once(who, 'pinComment', { commentId })).toMatchObject({ status: 'rejected', error: { code: 'forbidden' } });
    }
    expect(await pinnedOf(videoId)).toEqual({ video: null, rows: [] });
    expect(await c.once(owner, 'pinComment', { commentId })).toMatchObject({ status: 'applied' });
    expect(await c.once(ann, 'unpinComment', { commentId })).toMatchObject({ status: 'rejected', error: { code: 'forbidden' } });
    expect(await pinnedOf(videoId)).toEqual({ video: commentId, rows: [commentId] });
    expect(await c.once(owner, 'unpinComment', { commentId })).toMatchObject({ status: 'applied' });
    expect(await pinnedOf(videoId)).toEqual({ video: null, rows: [] });
  });

  it('at most one pinned comment per video: pinning a second unpins the first', async () => {
    const videoId = await c.video(owner);
    const [first, second] = [await c.say(ann, videoId, 'one'), await c.say(bob, videoId, 'two')];
    await c.once(owner, 'pinComment', { commentId: first });
    expect(await c.once(owner, 'pinComment', { commentId: second })).toMatchObject({ status: 'applied' });
    expect(await pinnedOf(videoId)).toEqual({ video: second, rows: [second] });
    // Unpinning the one no longer pinned changes nothing.
    expect(await c.once(owner, 'unpinComment', { commentId: first })).toMatchObject({ status: 'applied' });
    expect(await pinnedOf(videoId)).toEqual({ video: second, rows: [second] });
  });

  it('a reply cannot be pinned (invalid), nor a deleted comment (not_found)', async () => {
    const videoId = await c.video(owner);
    const top = await c.say(ann, videoId, 'top');
    const reply = await c.say(bob, videoId, 'reply', top);
    expect(await c.once(owner, 'pinComment', { commentId: reply })).toMatchObject({
      status: 'rejected',
      error: { code: 'invalid', message: 'Only a comment, not a reply, can be pinned.' },
    });
    await c.once(ann, 'deleteComment', { commentId: top });
    expect(await c.once(owner, 'pinComment', { commentId: top })).toMatchObject({ status: 'rejected', error: { code: 'not_found' } });
    expect(await pinnedOf(videoId)).toEqual({ video: null, rows: [] });
  });

  it('replays of a pin and an unpin change nothing more', async () => {
    const videoId = await c.video(owner);
    const commentId = await c.say(ann, videoId, 'pinned once');
    await c.replayed(owner, 'pinComment', { commentId });
    expect(await pinnedOf(videoId)).toEqual({ video: commentId, rows: [commentId] });
    await c.replayed(owner, 'unpinComment', { commentId });
    expect(await pinnedOf(videoId)).toEqual({ video: null, rows: [] });
  });

  it('a pin racing a reply to the pinned comment, 10 times: both apply, and neither waits on the other for a deadlock', async () => {
    await raceRounds(10, async (round, timed) => {
      const videoId = await c.video(owner);
      const top = await c.say(ann, videoId, `pin me ${round}`);
      const [pinned, replied] = await timed(() =>
        Promise.all([
          c.once(owner, 'pinComment', { commentId: top }),
          c.once(bob, 'addComment', { commentId: randomUUID(), videoId, content: 'congrats', parentId: top }),
        ]),
      );
      expect([pinned.status, replied.status]).toEqual(['applied', 'applied']);
      expect(await pinnedOf(videoId)).toEqual({ video: top, rows: [top] });
      expect(await c.comment(top)).toMatchObject({ reply_count: 1 });
    });
  });
});
