import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushSender, type PushSender } from '#server/notifications/sender';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';
import { startPushService, type PushService, subscribeDevice } from '../helpers/push-service';

// Issue 29's notifications through the real push on both engines (docs/notifications.md): a reply
// tells the author of the comment replied to, an @mention each member it names once per comment
// (never oneself, never twice, an unknown handle nobody), a comment's likes are one row batched like
// a video's, and a deleted comment's notifications go with it (its words are kept nowhere).

/** PUSH_LIKE_BATCH_SECONDS' default: a comment's likes wait it. */
const PUSH_WINDOW_MS = 60_000;

let t: TestApp;
let svc: PushService;
let sender: PushSender;

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', MEDIA_WORKER: 'off', PUSH_RATE_BURST: '100000' });
  svc = await startPushService();
  // A tick far away: the test says when the sender looks (runOnce).
  sender = startPushSender(t.deps, { tickMs: 3_600_000 });
});
afterAll(async () => {
  await sender?.stop();
  await svc?.stop();
  await t?.close();
});

interface Note {
  id: string;
  kind: string;
  user_id: string;
  actor_name: string | null;
  video_id: string | null;
  comment_id: string | null;
  detail: string | null;
  count: number;
  read_at: number | null;
  push_due_at: number | null;
}

async function push(user: TestUser, name: string, args: Record<string, unknown>): Promise<void> {
  const res = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [{ id: 1, name, args }] }, user.token);
  expect(res.status).toBe(200);
  expect(res.json.results[0]).toMatchObject({ status: 'applied' });
}
async function say(user: TestUser, videoId: string, content: string, parentId?: string): Promise<string> {
  const commentId = randomUUID();
  t.advance(1);
  await push(user, 'addComment', { commentId, videoId, content, ...(parentId ? { parentId } : {}) });
  return commentId;
}
const pull = async (user: TestUser, cursor: string | null) => {
  const res = await call(t.app, 'POST', '/api/sync/pull', { client_id: randomUUID(), cursor }, user.token);
  expect(res.status).toBe(200);
  return res.json;
};
const notesOf = async (user: TestUser): Promise<Note[]> =>
  (
    await t.deps.db
      .selectFrom('notifications')
      .select(['id', 'kind', 'user_id', 'actor_name', 'video_id', 'comment_id', 'detail', 'count', 'read_at', 'push_due_at'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((n) => ({
    ...n,
    count: Number(n.count),
    read_at: n.read_at === null ? null : Number(n.read_at),
    push_due_at: n.push_due_at === null ? null : Number(n.push_due_at),
  }));
const handleOf = async (user: TestUser) => (await t.deps.db.selectFrom('profiles').select('handle').where('id', '=', user.id).executeTakeFirstOrThrow()).handle;
/** One member per name, as a tuple of the same length. */
const people = <N extends string[]>(...names: N) => Promise.all(names.map((name) => createUser(t.deps, { name }))) as Promise<{ [K in keyof N]: TestUser }>;

describe('a reply', () => {
  it('"Ravi replied to your comment": told to the author of the comment replied to, with the reply\'s words and id; never to oneself', async () => {
    const [owner, ann, ravi] = await people('Owner', 'Ann', 'Ravi');
    const videoId = await insertVideo(t.deps, owner.id);
    const top = await say(ann, videoId, 'first!');
    const before = await pull(ann, null);

    const reply = await say(ravi, videoId, 'welcome back', top);
    expect(await notesOf(ann)).toMatchObject([
      { kind: 'reply', actor_name: 'Ravi', video_id: videoId, comment_id: reply, detail: 'welcome back', count: 1, read_at: null },
    ]);
    const delta = await pull(ann, before.cursor);
    expect(delta.notifications).toMatchObject([{ kind: 'reply', actor_name: 'Ravi', comment_id: reply, detail: 'welcome back', read: false }]);

    // Ann answers in her own thread: nobody tells her of her own words.
    await say(ann, videoId, 'thanks', top);
    expect(await notesOf(ann)).toHaveLength(1);
    // The video's owner hears of each comment on their video as before.
    expect((await notesOf(owner)).map((n) => n.kind)).toEqual(['comment', 'comment', 'comment']);
  });

  it("a reply to a reply tells whom it answered, not the thread's top author", async () => {
    const [owner, ann, ravi, bob] = await people('Owner', 'Ann', 'Ravi', 'Bob');
    const videoId = await insertVideo(t.deps, owner.id);
    const top = await say(ann, videoId, 'top');
    const ravisReply = await say(ravi, videoId, 'a reply', top);
    const annBefore = (await notesOf(ann)).length;
    const bobsReply = await say(bob, videoId, 'to Ravi', ravisReply);
    expect(await notesOf(ravi)).toMatchObject([{ kind: 'reply', actor_name: 'Bob', comment_id: bobsReply }]);
    expect(await notesOf(ann)).toHaveLength(annBefore);
  });

  it('pushed at once to the device, under the comments choice', async () => {
    const [owner, ann, ravi] = await people('Owner', 'Ann', 'Ravi');
    const device = await subscribeDevice(t, svc, ann);
    const videoId = await insertVideo(t.deps, owner.id);
    const top = await say(ann, videoId, 'what a view');
    await say(ravi, videoId, 'agreed', top);
    expect(await sender.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await svc.messages(device)).toMatchObject([
      { title: 'Ravi replied to your comment', body: 'agreed', url: `/home#video-${videoId}`, notification: { kind: 'reply' } },
    ]);

    // Comments switched off: the row is listed, nothing is pushed.
    expect((await call(t.app, 'PUT', '/api/notifications/preferences', { comments: false }, ann.token)).status).toBe(200);
    await say(ravi, videoId, 'again', top);
    await sender.runOnce();
    expect(await svc.messages(device)).toHaveLength(1);
    expect(await notesOf(ann)).toHaveLength(2);
  });
});

describe('a mention', () => {
  it('tells each member named once per comment, never the author, and an unknown handle nobody', async () => {
    const [owner, ann, bob, cy] = await people('Owner', 'Ann', 'Bob', 'Cy');
    const videoId = await insertVideo(t.deps, owner.id);
    const [bobH, annH] = [await handleOf(bob), await handleOf(ann)];
    const text = `@${bobH} look, @${bobH} again; @${annH} (me) and @nobody_${randomUUID().slice(0, 6)}`;
    const comment = await say(ann, videoId, text);

    const [note, ...more] = await notesOf(bob);
    expect(more).toEqual([]);
    expect(note).toMatchObject({ kind: 'mention', actor_name: 'Ann', comment_id: comment, video_id: videoId, count: 1 });
    // Its opening words (100 characters at most).
    expect(note!.detail!.slice(0, -1)).toBe(text.slice(0, note!.detail!.length - 1));
    expect(await notesOf(ann)).toEqual([]);
    expect(await notesOf(cy)).toEqual([]);
    const [item] = (await pull(bob, null)).notifications;
    expect(item).toMatchObject({ kind: 'mention', comment_id: comment });

    // In a reply too.
    const reply = await say(cy, videoId, `@${bobH.toUpperCase()} what do you think?`, comment);
    expect((await notesOf(bob)).map((n) => [n.kind, n.comment_id])).toEqual([
      ['mention', comment],
      ['mention', reply],
    ]);
  });

  it('one notification per member and comment: the one replied to hears of the reply, the owner named hears of the mention', async () => {
    const [owner, ann, bob] = await people('Owner', 'Ann', 'Bob');
    const videoId = await insertVideo(t.deps, owner.id);
    const top = await say(ann, videoId, 'hello');
    const ownerBefore = (await notesOf(owner)).length;
    const reply = await say(bob, videoId, `@${await handleOf(ann)} @${await handleOf(owner)} hi both`, top);

    expect((await notesOf(ann)).map((n) => [n.kind, n.comment_id])).toEqual([['reply', reply]]);
    const ownerNotes = (await notesOf(owner)).slice(ownerBefore);
    expect(ownerNotes.map((n) => [n.kind, n.comment_id])).toEqual([['mention', reply]]);
  });
});

describe("a comment's likes", () => {
  it('are one row per comment while unread, counted and pushed once after the batching window; an unlike tells nothing', async () => {
    const [owner, ann, ...likers] = await people('Owner', 'Ann', 'L1', 'L2', 'L3');
    const device = await subscribeDevice(t, svc, ann);
    const videoId = await insertVideo(t.deps, owner.id);
    const comment = await say(ann, videoId, 'like me');
    await sender.runOnce();
    const start = t.deps.now();

    for (const l of likers) await push(l, 'likeComment', { commentId: comment });
    // Her own like of her comment tells her nothing; an unlike takes nothing back and tells nothing.
    await push(ann, 'likeComment', { commentId: comment });
    await push(likers[0]!, 'unlikeComment', { commentId: comment });
    const [note, ...more] = await notesOf(ann);
    expect(more).toEqual([]);
    expect(note).toMatchObject({ kind: 'comment_likes', comment_id: comment, video_id: videoId, count: 3, actor_name: 'L3', detail: 'like me', read_at: null });
    expect(note!.push_due_at).toBeGreaterThanOrEqual(start + PUSH_WINDOW_MS);
    expect(note!.push_due_at).toBeLessThan(start + PUSH_WINDOW_MS + 5_000);
    expect((await notesOf(owner)).filter((n) => n.kind === 'comment_likes')).toEqual([]);

    expect(await sender.runOnce()).toBe(0);
    t.advance(PUSH_WINDOW_MS + 1);
    expect(await sender.runOnce()).toBe(1);
    expect(await svc.messages(device)).toMatchObject([
      { title: '3 people liked your comment', body: 'like me', notification: { kind: 'comment_likes', count: 3 } },
    ]);

    // Once read, the next like opens it again with a count of one.
    await push(ann, 'markNotificationsRead', { ids: [note!.id] });
    await push(likers[0]!, 'likeComment', { commentId: comment });
    expect(await notesOf(ann)).toMatchObject([{ id: note!.id, count: 1, read_at: null, actor_name: 'L1' }]);
  });

  it("many likes of two comments in one push are one row each (PostgreSQL writes them at the push's end)", async () => {
    const [owner, ann, bob] = await people('Owner', 'Ann', 'Bob');
    const videoId = await insertVideo(t.deps, owner.id);
    const [a, b] = [await say(ann, videoId, 'one'), await say(ann, videoId, 'two')];
    const mutations = [a, b].flatMap((commentId, i) => [
      { id: 3 * i + 1, name: 'likeComment', args: { commentId } },
      { id: 3 * i + 2, name: 'unlikeComment', args: { commentId } },
      { id: 3 * i + 3, name: 'likeComment', args: { commentId } },
    ]);
    const res = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations }, bob.token);
    expect(res.status).toBe(200);
    const notes = (await notesOf(ann)).filter((n) => n.kind === 'comment_likes');
    expect(notes.map((n) => [n.comment_id, n.count]).sort()).toEqual(
      [
        [a, 2],
        [b, 2],
      ].sort(),
    );
  });
});

describe("a deleted comment's notifications", () => {
  it('go with it: the reply, mention, owner and likes rows quoting it, and the devices drop them; the replies kept under its tombstone keep theirs', async () => {
    const [owner, ann, bob, cy] = await people('Owner', 'Ann', 'Bob', 'Cy');
    const videoId = await insertVideo(t.deps, owner.id);
    const secret = `a regret ${randomUUID()}`;
    const top = await say(cy, videoId, 'start');
    const doomed = await say(ann, videoId, `@${await handleOf(bob)} ${secret}`, top);
    await push(bob, 'likeComment', { commentId: doomed });
    const annTop = await say(ann, videoId, `${secret} again`);
    const bobsReply = await say(bob, videoId, 'kept', annTop);
    await push(cy, 'likeComment', { commentId: annTop });
    const cursors = new Map(await Promise.all([owner, ann, bob, cy].map(async (u) => [u.id, (await pull(u, null)).cursor] as const)));
    const quoting = async (commentId: string) =>
      t.deps.db.selectFrom('notifications').select(['id', 'user_id', 'kind']).where('comment_id', '=', commentId).orderBy('id').execute();
    const doomedNotes = await quoting(doomed);
    expect(doomedNotes.map((n) => n.kind).sort()).toEqual(['comment', 'comment_likes', 'mention', 'reply']);

    await push(ann, 'deleteComment', { commentId: doomed });
    expect(await quoting(doomed)).toEqual([]);
    for (const u of [owner, cy]) {
      const delta = await pull(u, cursors.get(u.id)!);
      expect(delta.deleted_notifications.sort()).toEqual(doomedNotes.filter((n) => n.user_id === u.id).map((n) => n.id));
    }
    const bobDelta = await pull(bob, cursors.get(bob.id)!);
    expect(bobDelta.deleted_notifications).toEqual(doomedNotes.filter((n) => n.user_id === bob.id).map((n) => n.id));

    // A top-level comment with a reply becomes a tombstone: its own notifications go, the reply's stay.
    const replyNotes = await quoting(bobsReply);
    expect(replyNotes.map((n) => n.kind).sort()).toEqual(['comment', 'reply']);
    await push(ann, 'deleteComment', { commentId: annTop });
    expect(await quoting(annTop)).toEqual([]);
    expect(await quoting(bobsReply)).toEqual(replyNotes);
    // The words are kept in no notification.
    const all = await t.deps.db.selectFrom('notifications').select('detail').execute();
    expect(all.filter((n) => n.detail?.includes(secret))).toEqual([]);
  });

  it("a deleted video's go with it, as before", async () => {
    const [owner, ann] = await people('Owner', 'Ann');
    const videoId = await insertVideo(t.deps, owner.id);
    const top = await say(owner, videoId, 'mine');
    await say(ann, videoId, 'reply', top);
    await push(owner, 'likeComment', { commentId: await say(ann, videoId, 'top') });
    // The owner: Ann's reply and her comment; Ann: the owner's like.
    expect((await notesOf(owner)).map((n) => n.kind)).toEqual(['reply', 'comment']);
    expect((await notesOf(ann)).map((n) => n.kind)).toEqual(['comment_likes']);
    await push(owner, 'deleteVideo', { videoId });
    expect(await notesOf(owner)).toEqual([]);
    expect(await notesOf(ann)).toEqual([]);
  });
});
