import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushSender, type PushSender } from '#server/notifications/sender';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { startPushService, type PushService, subscribeDevice } from '../helpers/push-service';

// The follow notification (docs/notifications.md) through the HTTP API on both engines: in the
// followee's pull and pushed to their device through a local push service; an unfollow while it
// is unread takes it back (a pull says it is gone), a read one stays, and a re-follow tells at most
// once a day.

const DAY_MS = 24 * 60 * 60 * 1000;
/** PUSH_LIKE_BATCH_SECONDS' default: a follow's push waits it. */
const PUSH_WINDOW_MS = 60_000;

let t: TestApp;
let svc: PushService;
let sender: PushSender;

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', MEDIA_WORKER: 'off' });
  svc = await startPushService();
  // A tick far away: the test says when the sender looks (runOnce).
  sender = startPushSender(t.deps, { tickMs: 3_600_000 });
});
afterAll(async () => {
  await sender?.stop();
  await svc?.stop();
  await t?.close();
});

async function once(user: TestUser, name: string, args: Record<string, unknown>): Promise<void> {
  const res = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [{ id: 1, name, args }] }, user.token);
  expect(res.status).toBe(200);
  expect(res.json.results[0].status).toBe('applied');
}
const follow = (a: TestUser, b: TestUser) => once(a, 'follow', { userId: b.id });
const unfollow = (a: TestUser, b: TestUser) => once(a, 'unfollow', { userId: b.id });
const pull = async (user: TestUser, cursor: string | null) => {
  const res = await call(t.app, 'POST', '/api/sync/pull', { client_id: randomUUID(), cursor }, user.token);
  expect(res.status).toBe(200);
  return res.json;
};
const followNotes = (user: TestUser) =>
  t.deps.db.selectFrom('notifications').selectAll().where('user_id', '=', user.id).where('kind', '=', 'follow').orderBy('created_at').execute();
const handleOf = async (user: TestUser) => (await t.deps.db.selectFrom('profiles').select('handle').where('id', '=', user.id).executeTakeFirstOrThrow()).handle;

describe('the follow notification', () => {
  it('"Asha started following you": in the pull with the follower\'s handle, and pushed to the device with a link to their page', async () => {
    const [asha, bob] = await Promise.all([createUser(t.deps, { name: 'Asha' }), createUser(t.deps, { name: 'Bob' })]);
    const device = await subscribeDevice(t, svc, bob);
    const before = await pull(bob, null);
    await follow(asha, bob);
    const handle = await handleOf(asha);

    const delta = await pull(bob, before.cursor);
    expect(delta.notifications).toMatchObject([{ kind: 'follow', actor_name: 'Asha', actor_handle: handle, video_id: null, count: 1, read: false }]);
    // Only the followee is told: the follower's own pull has none.
    expect((await pull(asha, null)).notifications.filter((n: { kind: string }) => n.kind === 'follow')).toEqual([]);

    // Not at once: a follow taken back within the window is never pushed.
    expect(await sender.runOnce()).toBe(0);
    t.advance(PUSH_WINDOW_MS + 1);
    expect(await sender.runOnce()).toBe(1);
    const messages = await svc.messages(device);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      title: 'Asha started following you',
      body: `@${handle}`,
      url: `/@${handle}`,
      unread: 1,
      notification: { kind: 'follow', actor_handle: handle },
    });

    // The link follows the follower's handle as it is now.
    await once(asha, 'setHandle', { handle: `asha_${randomUUID().slice(0, 6)}` });
    const [item] = (await pull(bob, null)).notifications;
    expect(item).toMatchObject({ kind: 'follow', actor_handle: await handleOf(asha) });
  });

  it('an unfollow before it is read takes it back: the pull says it is gone and nothing is pushed', async () => {
    const [ann, cy] = await Promise.all([createUser(t.deps, { name: 'Ann' }), createUser(t.deps, { name: 'Cy' })]);
    const device = await subscribeDevice(t, svc, cy);
    const before = await pull(cy, null);
    await follow(ann, cy);
    const [note] = await followNotes(cy);
    expect(note).toMatchObject({ actor_id: ann.id, read_at: null });
    await unfollow(ann, cy);
    expect(await followNotes(cy)).toEqual([]);

    const delta = await pull(cy, before.cursor);
    expect(delta.notifications).toEqual([]);
    expect(delta.deleted_notifications).toEqual([note!.id]);
    t.advance(PUSH_WINDOW_MS + 1);
    expect(await sender.runOnce()).toBe(0);
    expect(await svc.messages(device)).toEqual([]);
  });

  it('following and unfollowing over and over leaves at most one, and none after the last unfollow', async () => {
    const [dee, eli] = await Promise.all([createUser(t.deps, { name: 'Dee' }), createUser(t.deps, { name: 'Eli' })]);
    for (let i = 0; i < 5; i++) {
      await follow(dee, eli);
      expect(await followNotes(eli)).toHaveLength(1);
      await unfollow(dee, eli);
      expect(await followNotes(eli)).toHaveLength(0);
    }
  });

  it('a read one stays after an unfollow; a re-follow the same day tells nothing more, the next day once more', async () => {
    const [fay, gus] = await Promise.all([createUser(t.deps, { name: 'Fay' }), createUser(t.deps, { name: 'Gus' })]);
    await follow(fay, gus);
    const [note] = await followNotes(gus);
    await once(gus, 'markNotificationsRead', { ids: [note!.id] });
    await unfollow(fay, gus);
    expect(await followNotes(gus)).toMatchObject([{ id: note!.id }]);
    expect((await followNotes(gus))[0]!.read_at).not.toBeNull();

    await follow(fay, gus);
    expect(await followNotes(gus)).toMatchObject([{ id: note!.id }]);
    await unfollow(fay, gus);
    // Its row was read: the unfollow leaves it.
    expect(await followNotes(gus)).toHaveLength(1);

    t.advance(DAY_MS);
    // Tokens issued a day ago have expired.
    fay.token = (await t.deps.tokens.issue(fay.id)).token;
    gus.token = (await t.deps.tokens.issue(gus.id)).token;
    await follow(fay, gus);
    const notes = await followNotes(gus);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatchObject({ read_at: null, actor_name: 'Fay' });
    // That one is unread: an unfollow takes it back, the read one stays.
    await unfollow(fay, gus);
    expect((await followNotes(gus)).map((n) => n.id)).toEqual([note!.id]);
  });

  it('is pushed under the likes choice: with it off the device gets nothing, and the bell still lists it', async () => {
    const [hal, ivy] = await Promise.all([createUser(t.deps, { name: 'Hal' }), createUser(t.deps, { name: 'Ivy' })]);
    const device = await subscribeDevice(t, svc, ivy);
    const off = await call(t.app, 'PUT', '/api/notifications/preferences', { likes: false }, ivy.token);
    expect(off.status).toBe(200);
    await follow(hal, ivy);
    t.advance(PUSH_WINDOW_MS + 1);
    await sender.runOnce();
    expect(await svc.messages(device)).toEqual([]);
    expect((await pull(ivy, null)).notifications).toMatchObject([{ kind: 'follow', actor_name: 'Hal' }]);

    await call(t.app, 'PUT', '/api/notifications/preferences', { likes: true }, ivy.token);
    await unfollow(hal, ivy);
    await follow(hal, ivy);
    t.advance(PUSH_WINDOW_MS + 1);
    expect(await sender.runOnce()).toBe(1);
    expect(await svc.messages(device)).toMatchObject([{ title: 'Hal started following you' }]);
  });
});
