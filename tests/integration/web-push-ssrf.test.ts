import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPushSender } from '#server/notifications/sender';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser } from '../helpers/users';
import { startPushService, type PushService } from '../helpers/push-service';
import { insertVideo } from './sync-harness';

// Without PUSH_ALLOW_INSECURE_ENDPOINTS the sender connects only to public addresses: a
// subscription whose endpoint leads to this machine (a row from before the check, a name that
// resolves here) gets nothing, and the notification stays in the list.

let t: TestApp;
let svc: PushService;

beforeAll(async () => {
  t = await createTestApp();
  svc = await startPushService();
});
afterAll(async () => {
  await svc?.stop();
  await t?.close();
});

it('sends nothing to an endpoint whose name resolves to loopback', async () => {
  const owner = await createUser(t.deps, { name: 'Owner' });
  const fan = await createUser(t.deps, { name: 'Fan' });
  const key = (await call(t.app, 'GET', '/api/push/key', undefined, owner.token)).json.public_key;
  const device = await svc.subscribe(key);
  // As the check would never let it in: written straight into the table, by name rather than address.
  const endpoint = device.endpoint.replace('127.0.0.1', 'localhost');
  const now = t.deps.now();
  await t.deps.db
    .insertInto('push_subscriptions')
    .values({ id: randomUUID(), user_id: owner.id, endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth, created_at: now, updated_at: now })
    .execute();
  const sender = startPushSender(t.deps, { tickMs: 3_600_000 });
  try {
    const videoId = await insertVideo(t.deps, owner.id);
    await call(
      t.app,
      'POST',
      '/api/sync/push',
      { client_id: randomUUID(), mutations: [{ id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'hello' } }] },
      fan.token,
    );
    expect(await sender.runOnce()).toBe(1);
  } finally {
    await sender.stop();
  }
  expect(await svc.messages(device)).toEqual([]);
  const kept = await t.deps.db.selectFrom('notifications').select('kind').where('user_id', '=', owner.id).execute();
  expect(kept).toEqual([{ kind: 'comment' }]);
});
