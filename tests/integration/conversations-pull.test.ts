import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCast, type Conversations } from '../helpers/conversations';
import type { TestUser } from '../helpers/users';

// What another member's device pulls of a conversation (POST /api/sync/pull with the video's list
// open), on SQLite and PostgreSQL: the reply and whom it answers, the counts, its own liked_by_me,
// a tombstone without its words, and a removed comment among deleted_comments (issue 29).

let c: Conversations;
let owner: TestUser;
let ann: TestUser;
let bob: TestUser;
let cara: TestUser;

beforeAll(async () => {
  ({ c, owner, ann, bob } = await startCast());
  cara = await c.member('Cara');
});
afterAll(async () => {
  await c?.close();
});

const handleOf = async (user: TestUser) =>
  (await c.t.deps.db.selectFrom('profiles').select('handle').where('id', '=', user.id).executeTakeFirstOrThrow()).handle;

it("a member's device with the list open pulls replies, counts, its own likes, tombstones and deletions", async () => {
  const videoId = await c.video(owner);
  const top = await c.say(ann, videoId, 'top-level');
  const doomed = await c.say(bob, videoId, 'soon a tombstone');
  const lone = await c.say(bob, videoId, 'soon gone');
  const open = { open_videos: [videoId] };
  const first = await c.pull(cara, { ...open, load_comments: [videoId] });
  expect(first.comments.map((x: { id: string }) => x.id).sort()).toEqual([top, doomed, lone].sort());

  const reply = await c.say(bob, videoId, 'a reply', top);
  const kept = await c.say(ann, videoId, 'keeps the tombstone', doomed);
  for (const [who, name, commentId] of [
    [cara, 'likeComment', top],
    [owner, 'likeComment', top],
    [bob, 'deleteComment', doomed],
    [bob, 'deleteComment', lone],
  ] as const)
    expect(await c.once(who, name, { commentId })).toMatchObject({ status: 'applied' });

  const next = await c.pull(cara, { ...open, cursor: first.cursor });
  const byId = new Map<string, Record<string, unknown>>(next.comments.map((x: { id: string }) => [x.id, x]));
  expect(byId.get(reply)).toMatchObject({
    video_id: videoId,
    user_id: bob.id,
    name: 'Bob',
    content: 'a reply',
    parent_id: top,
    reply_to_user_id: ann.id,
    reply_to_handle: await handleOf(ann),
    deleted: false,
  });
  expect(byId.get(kept)).toMatchObject({ parent_id: doomed, reply_to_user_id: bob.id });
  expect(byId.get(top)).toMatchObject({ content: 'top-level', reply_count: 1, likes_count: 2, liked_by_me: true, deleted: false });
  expect(byId.get(doomed)).toMatchObject({ deleted: true, content: '', name: '', handle: '', reply_count: 1, likes_count: 0 });
  expect(byId.has(lone)).toBe(false);
  expect(next.deleted_comments).toEqual([lone]);
  expect(next.videos).toEqual([expect.objectContaining({ id: videoId, comments_count: 3 })]);

  // The same rows as another member reads them: a like is only the liker's own.
  const bobs = await c.pull(bob, { ...open, cursor: first.cursor });
  expect(bobs.comments.find((x: { id: string }) => x.id === top)).toMatchObject({ likes_count: 2, liked_by_me: false });

  // Cara takes her like back: her next pull says so, and the count follows.
  expect(await c.once(cara, 'unlikeComment', { commentId: top })).toMatchObject({ status: 'applied' });
  const last = await c.pull(cara, { ...open, cursor: next.cursor });
  expect(last.comments).toEqual([expect.objectContaining({ id: top, likes_count: 1, liked_by_me: false })]);
  expect(last.deleted_comments).toEqual([]);
});

it('a device whose list is not open hears of the video, not of its comments', async () => {
  const videoId = await c.video(owner);
  const top = await c.say(ann, videoId, 'top-level');
  const first = await c.pull(cara, {});
  await c.say(bob, videoId, 'a reply', top);
  const next = await c.pull(cara, { cursor: first.cursor });
  expect(next.comments).toEqual([]);
  expect(next.videos).toEqual([expect.objectContaining({ id: videoId, comments_count: 2 })]);
});

it("a list loaded whole carries the member's own replies, not the others': a reconnecting device keeps showing what it wrote", async () => {
  const videoId = await c.video(owner);
  const top = await c.say(ann, videoId, 'a question');
  const mine = await c.say(cara, videoId, 'my answer', top);
  const theirs = await c.say(bob, videoId, 'another answer', top);
  const loaded = await c.pull(cara, { open_videos: [videoId], load_comments: [videoId] });
  expect(loaded.comments_loaded).toEqual([videoId]);
  const ids = loaded.comments.map((x: { id: string }) => x.id);
  expect(ids).toContain(top);
  expect(ids).toContain(mine);
  expect(ids).not.toContain(theirs);
  expect(loaded.comments.find((x: { id: string }) => x.id === mine)).toMatchObject({ parent_id: top, reply_to_user_id: ann.id });
});
