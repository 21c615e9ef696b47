import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeltaSource } from '#server/realtime/poke-deltas';
import { startConversations, type Conversations } from '../helpers/conversations';
import { createUser, type TestUser } from '../helpers/users';

// Issue 30's server rules of block and mute through the real push and pull on both engines
// (server/sync/mutations/safety-rules.ts, docs/decisions/0024-safety.md): whom one may block or
// mute, the `blocked` refusal of every new action between two members, the snapshots both devices
// load after a block, and the points that stay as earned.

let c: Conversations;
let ann: TestUser;
let bob: TestUser;
let cara: TestUser;
let annVideo: string;
let bobVideo: string;
let caraVideo: string;
/** Ann's comment on Cara's video (Bob replies to it and likes it after the block). */
let annOnCara: string;
/** Each member's device cursor from before the block. */
const before: Record<string, string> = {};
let pointsBefore: Record<string, { creator: number; viewer: number }>;

const points = async (user: TestUser) => {
  const r = await c.t.deps.db.selectFrom('scores').selectAll().where('user_id', '=', user.id).executeTakeFirst();
  return { creator: Number(r?.creator_points ?? 0), viewer: Number(r?.viewer_points ?? 0) };
};
const counts = async (user: TestUser) => {
  const p = await c.t.deps.db.selectFrom('profiles').select(['followers_count', 'following_count']).where('id', '=', user.id).executeTakeFirstOrThrow();
  return { followers: Number(p.followers_count), following: Number(p.following_count) };
};
const likesCount = async (videoId: string) =>
  Number((await c.t.deps.db.selectFrom('videos').select('likes_count').where('id', '=', videoId).executeTakeFirstOrThrow()).likes_count);
const refused = (code: string, message?: string) => ({ status: 'rejected', error: message ? { code, message } : expect.objectContaining({ code }) });
const BLOCKED = refused('blocked', "You can't interact with this member.");

beforeAll(async () => {
  c = await startConversations();
  [ann, bob, cara] = await Promise.all([c.member('Ann'), c.member('Bob'), c.member('Cara')]);
  [annVideo, bobVideo, caraVideo] = await Promise.all([c.video(ann), c.video(bob), c.video(cara)]);
  for (const [who, whom] of [
    [ann, bob],
    [bob, ann],
    [cara, ann],
  ] as const)
    expect(await c.once(who, 'follow', { userId: whom.id })).toMatchObject({ status: 'applied' });
  // Bob's like and comment on Ann's video earn her points before the block; they keep counting.
  expect(await c.once(bob, 'like', { videoId: annVideo })).toMatchObject({ status: 'applied' });
  await c.say(bob, annVideo, 'Bob on Ann’s video, before the block');
  annOnCara = await c.say(ann, caraVideo, 'Ann on Cara’s video');
  for (const who of [ann, bob, cara]) before[who.id] = (await c.pull(who, {})).cursor;
  pointsBefore = { ann: await points(ann), bob: await points(bob) };

  await c.replayed(ann, 'block', { userId: bob.id });
});
afterAll(async () => {
  await c?.close();
});

describe('whom a member may block or mute', () => {
  it('refuses oneself and an admin as invalid, an unknown or inactive member as not_found, and writes nothing', async () => {
    const [admin, gone] = await Promise.all([createUser(c.t.deps, { name: 'Admin', isAdmin: true }), createUser(c.t.deps, { name: 'Gone', isActive: false })]);
    expect(await c.once(cara, 'block', { userId: cara.id })).toMatchObject(refused('invalid'));
    expect(await c.once(cara, 'block', { userId: admin.id })).toMatchObject(refused('invalid', "You can't block an admin."));
    expect(await c.once(cara, 'block', { userId: randomUUID() })).toMatchObject(refused('not_found'));
    expect(await c.once(cara, 'block', { userId: gone.id })).toMatchObject(refused('not_found'));
    expect(await c.once(cara, 'mute', { userId: cara.id })).toMatchObject(refused('invalid'));
    expect(await c.once(cara, 'mute', { userId: randomUUID() })).toMatchObject(refused('not_found'));
    expect(await c.once(cara, 'mute', { userId: gone.id })).toMatchObject(refused('not_found'));
    const rows = async (table: 'blocks' | 'mutes') =>
      c.t.deps.db
        .selectFrom(table)
        .selectAll()
        .where(table === 'blocks' ? 'blocker_id' : 'muter_id', '=', cara.id)
        .execute();
    expect(await rows('blocks')).toEqual([]);
    expect(await rows('mutes')).toEqual([]);
  });
});

describe('after Ann blocks Bob', () => {
  it('keeps one block row (the replays changed nothing), drops both follows with exact counts and moves no points', async () => {
    const rows = await c.t.deps.db.selectFrom('blocks').select(['blocker_id', 'blocked_id']).where('blocked_id', '=', bob.id).execute();
    expect(rows).toEqual([{ blocker_id: ann.id, blocked_id: bob.id }]);
    expect(await counts(ann)).toEqual({ followers: 1, following: 0 });
    expect(await counts(bob)).toEqual({ followers: 0, following: 0 });
    // Points earned before the block stay as earned (docs/decisions/0024-safety.md), and Bob's like still counts.
    expect(pointsBefore.ann!.creator).toBeGreaterThan(0);
    expect({ ann: await points(ann), bob: await points(bob) }).toEqual(pointsBefore);
    expect(await likesCount(annVideo)).toBe(1);
  });

  it("refuses Bob's queued like, comment, reply, comment like, follow and share toward Ann as blocked, and applies the rest of his queue", async () => {
    const results = await c.push(bob, [
      { id: 1, name: 'unlike', args: { videoId: annVideo } },
      { id: 2, name: 'like', args: { videoId: annVideo } },
      { id: 3, name: 'addComment', args: { commentId: randomUUID(), videoId: annVideo, content: 'On Ann’s video' } },
      { id: 4, name: 'addComment', args: { commentId: randomUUID(), videoId: caraVideo, content: 'A reply to Ann', parentId: annOnCara } },
      { id: 5, name: 'likeComment', args: { commentId: annOnCara } },
      { id: 6, name: 'follow', args: { userId: ann.id } },
      { id: 7, name: 'recordShare', args: { shareId: randomUUID(), videoId: annVideo } },
      { id: 8, name: 'like', args: { videoId: caraVideo } },
      { id: 9, name: 'addComment', args: { commentId: randomUUID(), videoId: caraVideo, content: 'Bob on Cara’s video' } },
    ]);
    // An unlike is no new action: Bob may take his like back (and its point goes with it).
    expect(results[0]).toEqual({ id: 1, status: 'applied' });
    for (const r of results.slice(1, 7)) expect(r).toMatchObject(BLOCKED);
    expect(results.slice(7)).toEqual([
      { id: 8, status: 'applied' },
      { id: 9, status: 'applied' },
    ]);
    expect(await likesCount(annVideo)).toBe(0);
    const state = await c.videoState(annVideo);
    expect(state.comments.map((x) => x.user_id)).toEqual([bob.id]);
    expect((await c.comment(annOnCara))?.likes_count).toBe(0);
    expect((await c.comment(annOnCara))?.reply_count).toBe(0);
    expect(await counts(ann)).toEqual({ followers: 1, following: 0 });
  });

  it('refuses the blocker too: two-way', async () => {
    expect(await c.once(ann, 'like', { videoId: bobVideo })).toMatchObject(BLOCKED);
    expect(await c.once(ann, 'follow', { userId: bob.id })).toMatchObject(BLOCKED);
    expect(await c.once(ann, 'addComment', { commentId: randomUUID(), videoId: bobVideo, content: 'Hi' })).toMatchObject(BLOCKED);
    expect(await c.once(ann, 'like', { videoId: caraVideo })).toMatchObject({ status: 'applied' });
  });

  it("answers both members' next pulls by a snapshot, and Cara's by changed rows; the block row reaches Ann alone, with Bob's name and handle", async () => {
    const annPull = await c.pull(ann, { cursor: before[ann.id] });
    const bobPull = await c.pull(bob, { cursor: before[bob.id] });
    const caraPull = await c.pull(cara, { cursor: before[cara.id] });
    expect(annPull.reset).toBe(true);
    expect(bobPull.reset).toBe(true);
    expect(caraPull.reset).toBe(false);
    expect(annPull.blocks).toEqual([
      expect.objectContaining({ id: `${ann.id}:${bob.id}`, blocker_id: ann.id, blocked_id: bob.id, name: 'Bob', handle: expect.any(String) }),
    ]);
    expect(bobPull.blocks).toEqual([]);
    // Once caught up, the next pull is changed rows again.
    expect((await c.pull(ann, { cursor: annPull.cursor })).reset).toBe(false);
  });

  it("sends Ann's and Bob's live streams a plain poke (they pull), Cara's a delta", async () => {
    const sources = [ann, bob, cara].map((u) => createDeltaSource(c.t.deps, { ...u, isAdmin: false }, null, async () => true));
    await Promise.all(sources.map((s) => s.opened));
    expect(await c.once(ann, 'unblock', { userId: bob.id })).toEqual({ id: 1, status: 'applied' });
    const events = await Promise.all(sources.map((s) => s.next()));
    expect(events.map((e) => e.kind)).toEqual(['plain', 'plain', 'delta']);
    // Unblocked: new actions go through again, and the follows it took stay gone.
    expect(await c.once(bob, 'like', { videoId: annVideo })).toMatchObject({ status: 'applied' });
    expect(await counts(bob)).toEqual({ followers: 0, following: 0 });
  });
});

describe('a mute', () => {
  it("resyncs the muter's devices alone, and the muted member can still act", async () => {
    const [dev, eve] = await Promise.all([c.member('Dev'), c.member('Eve')]);
    const devVideo = await c.video(dev);
    const cursors = { dev: (await c.pull(dev, {})).cursor, eve: (await c.pull(eve, {})).cursor };
    await c.replayed(dev, 'mute', { userId: eve.id });
    const devPull = await c.pull(dev, { cursor: cursors.dev });
    expect(devPull.reset).toBe(true);
    expect(devPull.mutes).toEqual([expect.objectContaining({ muter_id: dev.id, muted_id: eve.id, name: 'Eve', handle: expect.any(String) })]);
    expect((await c.pull(eve, { cursor: cursors.eve })).reset).toBe(false);
    expect(await c.once(eve, 'like', { videoId: devVideo })).toMatchObject({ status: 'applied' });
    expect(await c.once(eve, 'follow', { userId: dev.id })).toMatchObject({ status: 'applied' });
    expect(await c.once(dev, 'unmute', { userId: eve.id })).toMatchObject({ status: 'applied' });
    expect((await c.pull(dev, { cursor: devPull.cursor })).reset).toBe(true);
  });
});
