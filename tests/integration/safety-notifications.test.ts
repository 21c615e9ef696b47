import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConversations, type Conversations } from '../helpers/conversations';
import { testHandle } from '../helpers/test-handle';
import type { TestUser } from '../helpers/users';

// Issue 30's notifications between members who blocked or muted each other, through the real push
// and pull on both engines (docs/decisions/0024-safety.md): those written before are left out of the
// reader's pull (and kept), new ones are not written, and each carries its actor_id for the device.

let c: Conversations;

type Note = { id: string; kind: string; actor_id?: string | null };
const pulled = async (user: TestUser): Promise<Note[]> => (await c.pull(user, {})).notifications;
/** The kinds of `user`'s notifications whose actor is `actor`, as stored (shown or not). */
const stored = async (user: TestUser, actor: TestUser) =>
  (await c.t.deps.db.selectFrom('notifications').select('kind').where('user_id', '=', user.id).where('actor_id', '=', actor.id).execute())
    .map((r) => r.kind)
    .sort();
const kindsFrom = (notes: Note[], actor: TestUser) =>
  notes
    .filter((n) => n.actor_id === actor.id)
    .map((n) => n.kind)
    .sort();
const applied = async (user: TestUser, name: string, args: Record<string, unknown>) =>
  expect(await c.once(user, name, args)).toMatchObject({ status: 'applied' });

/** Everything `actor` can tell `member` of: a like, a comment, a reply, a mention, a comment's like, a follow. */
async function actToward(actor: TestUser, member: TestUser, memberVideo: string, otherVideo: string) {
  const memberSays = await c.say(member, otherVideo, 'Something to reply to');
  await applied(actor, 'like', { videoId: memberVideo });
  await c.say(actor, memberVideo, 'A comment');
  await c.say(actor, otherVideo, 'A reply', memberSays);
  await c.say(actor, otherVideo, `Hello @${testHandle(member.id)}`);
  await applied(actor, 'likeComment', { commentId: memberSays });
  await applied(actor, 'follow', { userId: member.id });
}
const EVERY_KIND = ['comment', 'comment_likes', 'follow', 'likes', 'mention', 'reply'];

beforeAll(async () => {
  c = await startConversations();
});
afterAll(async () => {
  await c?.close();
});

describe('a block', () => {
  let ann: TestUser;
  let bob: TestUser;
  let annVideo: string;
  let bobVideo: string;
  let otherVideo: string;

  beforeAll(async () => {
    const cara = await c.member('Cara');
    [ann, bob] = await Promise.all([c.member('Ann'), c.member('Bob')]);
    [annVideo, bobVideo, otherVideo] = await Promise.all([c.video(ann), c.video(bob), c.video(cara)]);
    await actToward(bob, ann, annVideo, otherVideo);
    await applied(ann, 'like', { videoId: bobVideo });
  });

  it('names its actor on every notification it wrote', async () => {
    expect(kindsFrom(await pulled(ann), bob)).toEqual(EVERY_KIND);
    expect(kindsFrom(await pulled(bob), ann)).toEqual(['likes']);
  });

  it("leaves the notifications between them out of both members' pulls, and keeps them until an unblock shows them again", async () => {
    await applied(ann, 'block', { userId: bob.id });
    expect(kindsFrom(await pulled(ann), bob)).toEqual([]);
    // Two-way: Ann's like is left out of Bob's, though Bob blocked nobody.
    expect(kindsFrom(await pulled(bob), ann)).toEqual([]);
    expect(await stored(ann, bob)).toEqual(EVERY_KIND);
    await applied(ann, 'unblock', { userId: bob.id });
    expect(kindsFrom(await pulled(ann), bob)).toEqual(EVERY_KIND);
    expect(kindsFrom(await pulled(bob), ann)).toEqual(['likes']);
    await applied(ann, 'block', { userId: bob.id });
  });

  it('refuses a mention of the other in a comment elsewhere with `blocked`, either way, and tells nobody', async () => {
    const before = await stored(ann, bob);
    const mention = (who: TestUser, handle: string) =>
      c.once(who, 'addComment', { commentId: randomUUID(), videoId: otherVideo, content: `Still here @${handle}` });
    expect(await mention(bob, testHandle(ann.id))).toMatchObject({ status: 'rejected', error: { code: 'blocked' } });
    expect(await mention(ann, testHandle(bob.id))).toMatchObject({ status: 'rejected', error: { code: 'blocked' } });
    expect(await stored(ann, bob)).toEqual(before);
    expect(await stored(bob, ann)).toEqual(['likes']);
  });
});

describe('a mute', () => {
  let dev: TestUser;
  let eve: TestUser;
  let devVideo: string;
  let eveVideo: string;
  let otherVideo: string;

  beforeAll(async () => {
    const fay = await c.member('Fay');
    [dev, eve] = await Promise.all([c.member('Dev'), c.member('Eve')]);
    [devVideo, eveVideo, otherVideo] = await Promise.all([c.video(dev), c.video(eve), c.video(fay)]);
    await c.say(eve, devVideo, 'Before the mute');
    await applied(dev, 'mute', { userId: eve.id });
  });

  it("hides the muted member's notifications from the muter and writes none of their new ones", async () => {
    await actToward(eve, dev, devVideo, otherVideo);
    expect(kindsFrom(await pulled(dev), eve)).toEqual([]);
    // The one written before the mute is kept, only hidden.
    expect(await stored(dev, eve)).toEqual(['comment']);
  });

  it('is one-way: the muter still tells the muted member', async () => {
    await actToward(dev, eve, eveVideo, otherVideo);
    expect(kindsFrom(await pulled(eve), dev)).toEqual(EVERY_KIND);
  });

  it('names the newest liker as the actor of a row of likes, for a member who muted nobody', async () => {
    const gus = await c.member('Gus');
    const gusVideo = await c.video(gus);
    await applied(dev, 'like', { videoId: gusVideo });
    await applied(eve, 'like', { videoId: gusVideo });
    const likes = (await pulled(gus)).filter((n) => n.kind === 'likes');
    expect(likes).toEqual([expect.objectContaining({ count: 2, actor_id: eve.id })]);
  });

  it('still lets the muted member act: their comment counts on the muter’s video', async () => {
    const commentId = randomUUID();
    await applied(eve, 'addComment', { commentId, videoId: devVideo, content: 'Counted' });
    expect((await c.comment(commentId))?.user_id).toBe(eve.id);
  });
});
