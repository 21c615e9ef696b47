import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTx } from '#server/changes/write-tx';
import { notifyProcessing } from '#server/notifications/create';
import { startPushSender, type PushSender } from '#server/notifications/sender';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { startPushService, type PushService, type TestSubscription, subscribeDevice } from '../helpers/push-service';
import { insertVideo } from './sync-harness';

// Web Push end to end against a local push service (tests/helpers/push-service.ts): a member's
// device subscribes, things happen to their videos, and the service decrypts what arrived.

let t: TestApp;
let svc: PushService;
let sender: PushSender;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;
const likers: TestUser[] = [];

const LIKE_WINDOW_MS = 60_000;

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', PUSH_LIKE_BATCH_SECONDS: String(LIKE_WINDOW_MS / 1000) });
  svc = await startPushService();
  // A tick far away: the test says when the sender looks (runOnce), besides the wake after a commit.
  sender = startPushSender(t.deps, { tickMs: 3_600_000 });
  bob = await createUser(t.deps, { name: 'Bob' });
  carol = await createUser(t.deps, { name: 'Carol' });
  admin = await createUser(t.deps, { name: 'Admin', isAdmin: true });
  for (let i = 1; i <= 5; i++) likers.push(await createUser(t.deps, { name: `Liker ${i}` }));
});
afterAll(async () => {
  await sender?.stop();
  await svc?.stop();
  await t?.close();
});

const push = (user: TestUser, mutations: unknown[]) => call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations }, user.token);

/** A device of `user` subscribes the way the client does: the server's key, the browser's subscription, registered. */

describe('Web Push delivery', () => {
  let bobsDevice: TestSubscription;
  let videoId: string;

  beforeAll(async () => {
    bobsDevice = await subscribeDevice(t, svc, bob);
    videoId = await insertVideo(t.deps, bob.id, { title: 'Sunset run' });
  });

  it('sends five likes within the batching window as one push: "5 people liked your video"', async () => {
    for (const liker of likers) expect((await push(liker, [{ id: 1, name: 'like', args: { videoId } }])).status).toBe(200);
    // Bob liking his own video tells nobody.
    await push(bob, [{ id: 1, name: 'like', args: { videoId } }]);
    expect(await sender.runOnce()).toBe(0);
    expect(await svc.messages(bobsDevice)).toEqual([]);

    t.advance(LIKE_WINDOW_MS + 1);
    expect(await sender.runOnce()).toBe(1);
    expect(await sender.runOnce()).toBe(0);
    const messages = await svc.messages(bobsDevice);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      title: '5 people liked your video',
      url: `/home#video-${videoId}`,
      unread: 1,
      notification: { kind: 'likes', video_id: videoId, count: 5, actor_name: 'Liker 5', read: false },
    });
  });

  it('pushes a comment at once, with its opening words', async () => {
    const before = (await svc.messages(bobsDevice)).length;
    await push(likers[0]!, [{ id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'What a view!' } }]);
    await sender.runOnce();
    const messages = await svc.messages(bobsDevice);
    expect(messages).toHaveLength(before + 1);
    expect(messages.at(-1)).toMatchObject({ title: 'Liker 1 commented on your video', body: 'What a view!', unread: 2, notification: { kind: 'comment' } });
  });

  it('tells the owner once that a video is ready, however often the job finishes', async () => {
    const before = (await svc.messages(bobsDevice)).length;
    const fresh = await insertVideo(t.deps, bob.id, { title: 'Morning swim' });
    for (let i = 0; i < 2; i++)
      await writeTx(t.deps, (trx, changes) => notifyProcessing(trx, changes, { videoId: fresh, ownerId: bob.id, kind: 'processed', detail: 'Morning swim' }));
    await sender.runOnce();
    const messages = await svc.messages(bobsDevice);
    expect(messages).toHaveLength(before + 1);
    expect(messages.at(-1)).toMatchObject({ title: 'Your video is ready', body: 'Morning swim', notification: { kind: 'processed', video_id: fresh } });
  });

  it('tells each winner their prize when a distribution is recorded: "You won ₹500 as #2 Best User"', async () => {
    await t.deps.db
      .insertInto('prizes')
      .values([
        { board: 'best_user', rank: 1, amount_rupees: 1000 },
        { board: 'best_user', rank: 2, amount_rupees: 500 },
      ])
      .execute();
    // Carol's video gets more likes than Bob's video has likes and comments: she is #1, he is #2.
    const carolsVideo = await insertVideo(t.deps, carol.id);
    const fans = [];
    for (let i = 0; i < 5; i++) fans.push(await createUser(t.deps, { name: `Fan ${i}` }));
    for (const liker of [...likers, ...fans, bob]) await push(liker, [{ id: 1, name: 'like', args: { videoId: carolsVideo } }]);
    const before = (await svc.messages(bobsDevice)).length;
    const res = await call(t.app, 'POST', '/api/admin/rewards/distributions', { period_start: 0 }, admin.token);
    expect(res.status).toBe(201);
    await sender.runOnce();
    const messages = await svc.messages(bobsDevice);
    expect(messages).toHaveLength(before + 1);
    expect(messages.at(-1)).toMatchObject({
      title: 'You won ₹500 as #2 Best User',
      url: '/rewards',
      notification: { kind: 'prize', amount_paise: 50_000, rank: 2 },
    });
  });

  it('removes a subscription the push service answers 410 for', async () => {
    const device = await subscribeDevice(t, svc, carol);
    await svc.expire(device);
    await push(likers[1]!, [{ id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId: await insertVideo(t.deps, carol.id), content: 'Hi' } }]);
    await sender.runOnce();
    const left = await t.deps.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', carol.id).execute();
    expect(left).toEqual([]);
    expect(await svc.messages(device)).toEqual([]);
  });

  it('sends nothing of a kind the member turned off, and still keeps the notification', async () => {
    const off = await call(t.app, 'PUT', '/api/notifications/preferences', { comments: false }, bob.token);
    expect(off.json).toEqual({ likes: true, comments: false, processing: true, prizes: true });
    const before = (await svc.messages(bobsDevice)).length;
    await push(likers[2]!, [{ id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'Quiet one' } }]);
    await sender.runOnce();
    expect(await svc.messages(bobsDevice)).toHaveLength(before);
    const kept = await t.deps.db
      .selectFrom('notifications')
      .select(['detail', 'push_due_at'])
      .where('user_id', '=', bob.id)
      .where('detail', '=', 'Quiet one')
      .execute();
    expect(kept).toEqual([{ detail: 'Quiet one', push_due_at: null }]);
    await call(t.app, 'PUT', '/api/notifications/preferences', { comments: true }, bob.token);
  });

  it('sends only to loopback: every endpoint it knows is the local push service', async () => {
    const endpoints = await t.deps.db.selectFrom('push_subscriptions').select('endpoint').execute();
    expect(endpoints.length).toBeGreaterThan(0);
    for (const { endpoint } of endpoints) expect(new URL(endpoint).hostname).toBe('127.0.0.1');
  });

  it('keeps a pending push at its first like: a like later in the window neither moves it nor makes a second push', async () => {
    const busy = await insertVideo(t.deps, bob.id, { title: 'Liked twice' });
    const pending = () => t.deps.db.selectFrom('notifications').select(['count', 'push_due_at']).where('video_id', '=', busy).executeTakeFirstOrThrow();
    const pushedOfBusy = async () => (await svc.messages(bobsDevice)).filter((m) => m.notification.video_id === busy);
    await push(likers[0]!, [{ id: 1, name: 'like', args: { videoId: busy } }]);
    const first = await pending();
    expect(first.push_due_at).toBeGreaterThan(0);
    t.advance(LIKE_WINDOW_MS / 2);
    await push(likers[1]!, [{ id: 1, name: 'like', args: { videoId: busy } }]);
    expect(await pending()).toEqual({ count: 2, push_due_at: first.push_due_at });
    await sender.runOnce();
    expect(await pushedOfBusy()).toEqual([]);
    t.advance(LIKE_WINDOW_MS / 2 + 1);
    await sender.runOnce();
    await sender.runOnce();
    expect(await pushedOfBusy()).toMatchObject([{ title: '2 people liked your video', notification: { count: 2 } }]);
  });

  it('sends nothing for likes the member read before the window closed; a like after that is pushed', async () => {
    const seen = await insertVideo(t.deps, bob.id, { title: 'Seen in time' });
    const before = (await svc.messages(bobsDevice)).length;
    await push(likers[0]!, [{ id: 1, name: 'like', args: { videoId: seen } }]);
    const note = await t.deps.db.selectFrom('notifications').select('id').where('video_id', '=', seen).executeTakeFirstOrThrow();
    expect((await push(bob, [{ id: 1, name: 'markNotificationsRead', args: { ids: [note.id] } }])).status).toBe(200);
    const after = await t.deps.db.selectFrom('notifications').select(['read_at', 'push_due_at']).where('id', '=', note.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ read_at: expect.any(Number), push_due_at: null });
    t.advance(LIKE_WINDOW_MS + 1);
    await sender.runOnce();
    expect(await svc.messages(bobsDevice)).toHaveLength(before);

    await push(likers[1]!, [{ id: 1, name: 'like', args: { videoId: seen } }]);
    t.advance(LIKE_WINDOW_MS + 1);
    expect(await sender.runOnce()).toBe(1);
    const messages = await svc.messages(bobsDevice);
    expect(messages).toHaveLength(before + 1);
    expect(messages.at(-1)).toMatchObject({ title: 'Liker 2 liked your video', notification: { video_id: seen, count: 1, read: false } });
  });
});
