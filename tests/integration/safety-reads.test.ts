import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app';
import { startConversations, type Conversations } from '../helpers/conversations';
import { getJson, listedCommentIds, pulledCommentIds } from '../helpers/safety';
import { testHandle } from '../helpers/test-handle';
import type { TestUser } from '../helpers/users';

// Issue 30's reads on SQLite and PostgreSQL, through the real push, pull and routes: while Ann has
// blocked Bob each is left out of the other's feeds (GET /api/videos, the Following feed, the pull's
// window and its changed videos), creator pages (404, their lists too), lists of people and comment
// lists (the route's pages and threads, the pull's lists and changed comments), on every video, while
// Cara, who blocked nobody, still sees both. Ann's mute of Mia takes Mia's videos out of Ann's feeds
// only, not her comments. The creator page says viewer.muted (docs/data-model.md, "Safety").

let c: Conversations;
let ann: TestUser;
let bob: TestUser;
let cara: TestUser;
let mia: TestUser;
const video: Record<'ann' | 'bob' | 'cara' | 'mia', string> = { ann: '', bob: '', cara: '', mia: '' };
/** On Cara's video: Bob's comment, Cara's reply to it, Ann's reply to it (written before the block), Cara's and Mia's comments. */
let bobSays: string;
let caraAnswersBob: string;
let annAnswersBob: string;
let caraSays: string;
let miaSays: string;

const ids = (items: { id: string }[]) => items.map((x) => x.id).sort();
const sorted = (...xs: string[]) => [...xs].sort();
const feedIds = async (viewer: TestUser) => ids((await getJson(c, viewer, '/api/videos?limit=50')).items);
const followingIds = async (viewer: TestUser) => ids((await getJson(c, viewer, '/api/feed/following')).items);
const pulledVideoIds = async (viewer: TestUser) => ids((await c.pull(viewer, {})).videos);
const status = async (viewer: TestUser, path: string) => (await call(c.t.app, 'GET', path, undefined, viewer.token)).status;
const handleOf = (u: TestUser) => testHandle(u.id);

beforeAll(async () => {
  c = await startConversations();
  [ann, bob, cara, mia] = await Promise.all([c.member('Ann'), c.member('Bob'), c.member('Cara'), c.member('Mia')]);
  for (const [who, whom] of [
    [ann, bob],
    [bob, ann],
    [ann, mia],
    [ann, cara],
    [bob, cara],
    [cara, bob],
    [cara, mia],
  ] as const)
    expect(await c.once(who, 'follow', { userId: whom.id })).toMatchObject({ status: 'applied' });
  for (const who of ['ann', 'bob', 'cara', 'mia'] as const) {
    c.t.advance(1);
    video[who] = await c.video({ ann, bob, cara, mia }[who]);
  }
  bobSays = await c.say(bob, video.cara, 'Bob was here');
  caraAnswersBob = await c.say(cara, video.cara, 'Hi Bob', bobSays);
  annAnswersBob = await c.say(ann, video.cara, 'Hi from Ann', bobSays);
  caraSays = await c.say(cara, video.cara, 'My own video');
  miaSays = await c.say(mia, video.cara, 'Mia says hi');
  // Before anything: everyone sees everything.
  expect(await feedIds(ann)).toEqual(sorted(...Object.values(video)));
  expect(await listedCommentIds(c, ann, video.cara)).toEqual(sorted(bobSays, caraSays, miaSays));
  expect(await followingIds(ann)).toEqual(sorted(video.bob, video.mia, video.cara));

  expect(await c.once(ann, 'block', { userId: bob.id })).toMatchObject({ status: 'applied' });
  expect(await c.once(ann, 'mute', { userId: mia.id })).toMatchObject({ status: 'applied' });
}, 60_000);
afterAll(async () => {
  await c?.close();
});

describe('a block, both ways', () => {
  it('takes each one’s videos out of the other’s feed, and nobody else’s', async () => {
    expect(await feedIds(ann)).toEqual(sorted(video.ann, video.cara));
    expect(await feedIds(bob)).toEqual(sorted(video.bob, video.cara, video.mia));
    expect(await feedIds(cara)).toEqual(sorted(...Object.values(video)));
  });

  it('takes them out of each other’s Following feed', async () => {
    expect(await followingIds(ann)).toEqual([video.cara]);
    expect(await followingIds(bob)).toEqual([video.cara]);
    expect(await followingIds(cara)).toEqual(sorted(video.bob, video.mia));
  });

  it('answers 404 for each one’s creator page, videos and lists to the other, 200 to others', async () => {
    for (const [viewer, other] of [
      [ann, bob],
      [bob, ann],
    ] as const)
      for (const tail of ['', '/videos', '/followers', '/following']) expect(await status(viewer, `/api/people/${handleOf(other)}${tail}`), tail).toBe(404);
    const page = await getJson(c, cara, `/api/people/${handleOf(bob)}`);
    expect(page.viewer).toEqual({ following: true, followed_by: true, blocked: false, muted: false });
    expect(ids((await getJson(c, cara, `/api/people/${handleOf(bob)}/videos`)).items)).toEqual([video.bob]);
  });

  it('leaves each out of the other’s lists of people and who to follow', async () => {
    // Cara's followers are Ann and Bob: Ann sees only herself, Bob only himself, Cara both.
    const followersOfCara = (viewer: TestUser) => getJson(c, viewer, `/api/people/${handleOf(cara)}/followers`).then((p) => ids(p.items));
    expect(await followersOfCara(ann)).toEqual([ann.id]);
    expect(await followersOfCara(bob)).toEqual([bob.id]);
    expect(await followersOfCara(cara)).toEqual(sorted(ann.id, bob.id));
    const followingOfCara = (viewer: TestUser) => getJson(c, viewer, `/api/people/${handleOf(cara)}/following`).then((p) => ids(p.items));
    expect(await followingOfCara(ann)).toEqual([mia.id]);
    expect(await followingOfCara(cara)).toEqual(sorted(bob.id, mia.id));
    const suggested = async (viewer: TestUser) => ids((await getJson(c, viewer, '/api/people/suggested')).items);
    expect(await suggested(bob)).not.toContain(ann.id);
    expect(await suggested(bob)).toContain(mia.id);
    expect(await suggested(mia)).toEqual(expect.arrayContaining([ann.id, bob.id]));
  });

  it('hides Bob’s comment on Cara’s video, and its thread, from Ann only', async () => {
    expect(await listedCommentIds(c, ann, video.cara)).toEqual(sorted(caraSays, miaSays));
    expect(await listedCommentIds(c, cara, video.cara)).toEqual(sorted(bobSays, caraSays, miaSays));
    expect(await status(ann, `/api/videos/${video.cara}/comments?parent=${bobSays}`)).toBe(404);
    const thread = await getJson(c, cara, `/api/videos/${video.cara}/comments?parent=${bobSays}`);
    expect(ids(thread.items)).toEqual(sorted(caraAnswersBob, annAnswersBob));
    // Bob does not see Ann's reply in the thread he can open.
    expect(ids((await getJson(c, bob, `/api/videos/${video.cara}/comments?parent=${bobSays}`)).items)).toEqual([caraAnswersBob]);
  });

  it('filters a fresh device’s pull: its feed window and its open comment lists', async () => {
    expect(await pulledVideoIds(ann)).toEqual(sorted(video.ann, video.cara));
    expect(await pulledVideoIds(bob)).toEqual(sorted(video.bob, video.cara, video.mia));
    // Ann's own reply goes with the comment it answers.
    expect(await pulledCommentIds(c, ann, video.cara)).toEqual(sorted(caraSays, miaSays));
    // Cara's list carries her own reply under Bob's comment.
    expect(await pulledCommentIds(c, cara, video.cara)).toEqual(sorted(bobSays, caraSays, miaSays, caraAnswersBob));
  });

  it('filters an incremental pull: a changed video or comment of the other is sent as gone', async () => {
    const annCursor = (await c.pull(ann, { open_videos: [video.cara] })).cursor as string;
    const caraCursor = (await c.pull(cara, { open_videos: [video.cara] })).cursor as string;
    const bobAgain = await c.say(bob, video.cara, 'Bob again');
    const caraToBob = await c.say(cara, video.cara, 'Still here', bobSays);
    expect(await c.once(cara, 'like', { videoId: video.bob })).toMatchObject({ status: 'applied' });
    const annPull = await c.pull(ann, { cursor: annCursor, open_videos: [video.cara] });
    expect(annPull.reset).toBe(false);
    expect(ids(annPull.videos)).not.toContain(video.bob);
    expect(annPull.deleted_videos).toContain(video.bob);
    expect(ids(annPull.comments)).not.toContain(bobAgain);
    expect(ids(annPull.comments)).not.toContain(caraToBob);
    const caraPull = await c.pull(cara, { cursor: caraCursor, open_videos: [video.cara] });
    expect(ids(caraPull.comments)).toEqual(expect.arrayContaining([bobAgain, caraToBob]));
    expect(ids(caraPull.videos)).toContain(video.bob);
  });
});

describe('a mute, the muter’s alone', () => {
  it('takes Mia’s videos out of Ann’s feeds and pull, not out of others’', async () => {
    expect(await feedIds(ann)).not.toContain(video.mia);
    expect(await followingIds(ann)).not.toContain(video.mia);
    expect(await pulledVideoIds(ann)).not.toContain(video.mia);
    expect(await feedIds(cara)).toContain(video.mia);
    expect(await followingIds(cara)).toContain(video.mia);
    expect(await feedIds(mia)).toContain(video.ann);
  });

  it('leaves Mia’s comments in Ann’s lists (the app collapses them) and her creator page open, saying muted', async () => {
    expect(await listedCommentIds(c, ann, video.cara)).toContain(miaSays);
    expect(await pulledCommentIds(c, ann, video.cara)).toContain(miaSays);
    expect((await getJson(c, ann, `/api/people/${handleOf(mia)}`)).viewer).toEqual({ following: true, followed_by: false, blocked: false, muted: true });
    expect((await getJson(c, cara, `/api/people/${handleOf(mia)}`)).viewer).toEqual({ following: true, followed_by: false, blocked: false, muted: false });
    expect((await getJson(c, mia, `/api/people/${handleOf(ann)}`)).viewer.muted).toBe(false);
  });
});

describe('undone', () => {
  it('an unblock and an unmute bring the videos, comments and pages back', async () => {
    expect(await c.once(ann, 'unblock', { userId: bob.id })).toMatchObject({ status: 'applied' });
    expect(await c.once(ann, 'unmute', { userId: mia.id })).toMatchObject({ status: 'applied' });
    expect(await feedIds(ann)).toEqual(sorted(...Object.values(video)));
    expect(await feedIds(bob)).toContain(video.ann);
    expect(await listedCommentIds(c, ann, video.cara)).toContain(bobSays);
    expect(await status(bob, `/api/people/${handleOf(ann)}`)).toBe(200);
    expect((await getJson(c, ann, `/api/people/${handleOf(bob)}`)).viewer).toEqual({ following: false, followed_by: false, blocked: false, muted: false });
  });
});
