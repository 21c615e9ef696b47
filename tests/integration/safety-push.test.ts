import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushSender, type PushSender } from '#server/notifications/sender';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { startPushService, type PushService, subscribeDevice } from '../helpers/push-service';

// Issue 30 and Web Push, on both engines against a local push service (tests/helpers/push-service.ts):
// a follow waits the likes' batching window before its push; a block or mute of its actor within
// that window means it is never pushed (server/notifications/payload.ts), and the badge counts
// only what the member is shown.

let t: TestApp;
let svc: PushService;
let sender: PushSender;

const WINDOW_MS = 60_000;

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', PUSH_LIKE_BATCH_SECONDS: String(WINDOW_MS / 1000) });
  svc = await startPushService();
  sender = startPushSender(t.deps, { tickMs: 3_600_000 });
});
afterAll(async () => {
  await sender?.stop();
  await svc?.stop();
  await t?.close();
});

async function once(user: TestUser, name: string, args: Record<string, unknown>) {
  const res = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [{ id: 1, name, args }] }, user.token);
  expect(res.status).toBe(200);
  expect(res.json.results[0]).toMatchObject({ status: 'applied' });
}

describe('a pending push whose actor was blocked or muted meanwhile', () => {
  it('is not sent, and the badge of the one that is counts only what is shown', async () => {
    const [dan, eve, fay, gus] = await Promise.all(['Dan', 'Eve', 'Fay', 'Gus'].map((name) => createUser(t.deps, { name })));
    const device = await subscribeDevice(t, svc, dan!);
    // Three follows, each pushed after the window: Dan mutes Eve and blocks Fay before it ends.
    for (const who of [eve!, fay!, gus!]) await once(who, 'follow', { userId: dan!.id });
    await once(dan!, 'mute', { userId: eve!.id });
    await once(dan!, 'block', { userId: fay!.id });
    t.advance(WINDOW_MS + 1);
    await sender.runOnce();
    const messages = await svc.messages(device);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ notification: { kind: 'follow', actor_id: gus!.id, actor_name: 'Gus' }, unread: 1 });
  });
});
