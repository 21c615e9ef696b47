import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConversations, type Conversations } from '../helpers/conversations';
import { countedFollows, follows, listedCommentIds, pulledCommentIds, pulledCounts } from '../helpers/safety';
import type { TestUser } from '../helpers/users';

// Issue 30's "Done when" for a block, through the real push, pull and comment list on SQLite and
// PostgreSQL: after Ann blocks Bob, Bob's comments on Cara's video leave Ann's comment list (the
// route and her pull) but stay in Cara's, both follow edges go with exact counts, and Bob's queued
// like on Ann's video comes back `blocked` (docs/decisions/0024-safety.md).

let c: Conversations;
let ann: TestUser;
let bob: TestUser;
let cara: TestUser;
let dev: TestUser;
let annVideo: string;
let caraVideo: string;
/** The comments on Cara's video, by whom and when. */
let bobBefore: string;
let bobAfter: string;
let caraSays: string;
let annSays: string;
/** Ann's device's cursor from before the block, with Cara's list open. */
let annCursor: string;

const sorted = (...ids: string[]) => [...ids].sort();

beforeAll(async () => {
  c = await startConversations();
  [ann, bob, cara, dev] = await Promise.all([c.member('Ann'), c.member('Bob'), c.member('Cara'), c.member('Dev')]);
  // Ann and Bob follow each other; Dev follows both and is followed by Ann, so the counts after are not all zero.
  for (const [who, whom] of [
    [bob, ann],
    [ann, bob],
    [dev, ann],
    [dev, bob],
    [ann, dev],
  ] as const)
    expect(await c.once(who, 'follow', { userId: whom.id })).toMatchObject({ status: 'applied' });
  [annVideo, caraVideo] = await Promise.all([c.video(ann), c.video(cara)]);
  bobBefore = await c.say(bob, caraVideo, 'Bob, before the block');
  caraSays = await c.say(cara, caraVideo, 'Cara on her own video');
  annSays = await c.say(ann, caraVideo, 'Ann on Cara’s video');
  annCursor = (await c.pull(ann, { open_videos: [caraVideo] })).cursor;

  expect(await c.once(ann, 'block', { userId: bob.id })).toMatchObject({ status: 'applied' });
  // Cara blocked nobody: Bob still comments on her video.
  bobAfter = await c.say(bob, caraVideo, 'Bob, after the block');
});
afterAll(async () => {
  await c?.close();
});

describe('after Ann blocks Bob', () => {
  it("Bob's comments on Cara's video are absent from Ann's comment list and present in Cara's", async () => {
    expect(await listedCommentIds(c, ann, caraVideo)).toEqual(sorted(caraSays, annSays));
    expect(await listedCommentIds(c, cara, caraVideo)).toEqual(sorted(bobBefore, caraSays, annSays, bobAfter));
    // Two-way: Ann's comment is gone from Bob's list too.
    expect(await listedCommentIds(c, bob, caraVideo)).toEqual(sorted(bobBefore, caraSays, bobAfter));
  });

  it("Bob's comments are absent from Ann's pull (a fresh device, the device that was there, and a comment after) and present in Cara's", async () => {
    expect(await pulledCommentIds(c, ann, caraVideo)).toEqual(sorted(caraSays, annSays));
    expect(await pulledCommentIds(c, cara, caraVideo)).toEqual(sorted(bobBefore, caraSays, annSays, bobAfter));

    // Ann's device from before the block catches up by a snapshot read with the block applied.
    const caughtUp = await c.pull(ann, { open_videos: [caraVideo], cursor: annCursor });
    expect(caughtUp.reset, 'a block resyncs the blocker by a snapshot').toBe(true);
    const caughtUpIds = caughtUp.comments.map((x: { id: string }) => x.id);
    expect(caughtUpIds).toEqual(expect.arrayContaining([caraSays, annSays]));
    expect(caughtUpIds).not.toContain(bobBefore);
    expect(caughtUpIds).not.toContain(bobAfter);

    // A comment Bob writes later is not among the changed rows her next pull sends.
    const bobLater = await c.say(bob, caraVideo, 'Bob, later still');
    const next = await c.pull(ann, { open_videos: [caraVideo], cursor: caughtUp.cursor });
    expect(next.comments.map((x: { id: string }) => x.id)).not.toContain(bobLater);
    const carasNext = await c.pull(cara, { open_videos: [caraVideo], cursor: caughtUp.cursor });
    expect(carasNext.comments.map((x: { id: string }) => x.id)).toContain(bobLater);
  });

  it("Bob's follow of Ann is gone (and hers of him), and both members' followers and following counts are exact", async () => {
    expect(await follows(c, bob, ann)).toBe(false);
    expect(await follows(c, ann, bob)).toBe(false);
    expect(await follows(c, dev, ann)).toBe(true);
    expect(await follows(c, dev, bob)).toBe(true);
    expect(await pulledCounts(c, ann)).toEqual({ followers_count: 1, following_count: 1 });
    expect(await countedFollows(c, ann.id)).toEqual({ followers_count: 1, following_count: 1 });
    expect(await pulledCounts(c, bob)).toEqual({ followers_count: 1, following_count: 0 });
    expect(await countedFollows(c, bob.id)).toEqual({ followers_count: 1, following_count: 0 });
    expect(await pulledCounts(c, dev)).toEqual({ followers_count: 1, following_count: 2 });
  });

  it("Bob's like of Ann's video, queued on his device, comes back blocked and changes nothing; the rest of his queue goes through", async () => {
    const queued = [
      { id: 1, name: 'like', args: { videoId: annVideo } },
      { id: 2, name: 'like', args: { videoId: caraVideo } },
    ];
    expect(await c.push(bob, queued)).toEqual([
      { id: 1, status: 'rejected', error: expect.objectContaining({ code: 'blocked' }) },
      { id: 2, status: 'applied' },
    ]);
    const likes = async (videoId: string) => {
      const rows = await c.t.deps.db.selectFrom('likes').select('user_id').where('video_id', '=', videoId).execute();
      const video = await c.t.deps.db.selectFrom('videos').select('likes_count').where('id', '=', videoId).executeTakeFirstOrThrow();
      return { rows: rows.map((r) => r.user_id), count: Number(video.likes_count) };
    };
    expect(await likes(annVideo)).toEqual({ rows: [], count: 0 });
    expect(await likes(caraVideo)).toEqual({ rows: [bob.id], count: 1 });
  });
});
