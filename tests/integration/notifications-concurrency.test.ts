import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '#server/deps';
import type { AppDeps } from '#server/context';
import { loadVapidKeys } from '#server/notifications/vapid-keys';
import { flushLikeNotifications, notifyLike, type LikeNoteBuffer } from '#server/notifications/create';
import { writeTx } from '#server/changes/write-tx';
import { startPushSender } from '#server/notifications/sender';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { startPushService, type PushService } from '../helpers/push-service';
import { insertVideo } from './sync-harness';

// Several instances of one database (on PostgreSQL: several server processes; here several sets of
// deps on the same database) create, claim and send notifications at the same time.

let t: TestApp;
let second: AppDeps & { close(): Promise<void> };
let svc: PushService;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });
  // A second instance on the same database, with the same configuration.
  second = await createDeps(t.deps.config);
  svc = await startPushService();
  owner = await createUser(t.deps, { name: 'Owner' });
});
afterAll(async () => {
  await svc?.stop();
  await second?.close();
  await t?.close();
});

describe('notifications under concurrency', () => {
  it('two instances making the VAPID keys at once end with one pair', async () => {
    await t.deps.db.deleteFrom('settings').where('key', '=', 'push_vapid').execute();
    const [a, b] = await Promise.all([loadVapidKeys(t.deps.db, t.deps.secrets, t.deps.now()), loadVapidKeys(second.db, second.secrets, second.now())]);
    expect(a).toEqual(b);
    const rows = await t.deps.db.selectFrom('settings').select('key').where('key', '=', 'push_vapid').execute();
    expect(rows).toHaveLength(1);
  });

  it('likes arriving at once from many members are one row counting them all', async () => {
    const videoId = await insertVideo(t.deps, owner.id);
    const likers = await Promise.all(Array.from({ length: 8 }, (_, i) => createUser(t.deps, { name: `Liker ${i}` })));
    const answers = await Promise.all(
      likers.map((u) => call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [{ id: 1, name: 'like', args: { videoId } }] }, u.token)),
    );
    expect(answers.map((a) => a.json.results[0].status)).toEqual(likers.map(() => 'applied'));
    const rows = await t.deps.db.selectFrom('notifications').select(['count', 'kind']).where('video_id', '=', videoId).execute();
    expect(rows).toEqual([{ count: 8, kind: 'likes' }]);
  });

  it('a push that buffers its like notifications writes them at its end, one row per video, counting each like', async () => {
    const [a, b] = [await insertVideo(t.deps, owner.id), await insertVideo(t.deps, owner.id)];
    const batch: LikeNoteBuffer = new Map();
    await writeTx(t.deps, async (trx, changes) => {
      for (const [videoId, likerName] of [
        [b, 'Ann'],
        [a, 'Ben'],
        [b, 'Cy'],
      ] as const)
        await notifyLike(trx, changes, { videoId, ownerId: owner.id, likerId: randomUUID(), likerName }, batch);
      // Nothing written before the flush.
      expect(await trx.selectFrom('notifications').select('id').where('video_id', 'in', [a, b]).execute()).toEqual([]);
      await flushLikeNotifications(trx, changes, batch);
    });
    const rows = await t.deps.db.selectFrom('notifications').select(['video_id', 'count', 'actor_name']).where('video_id', 'in', [a, b]).execute();
    expect(rows.sort((x, y) => (x.count > y.count ? 1 : -1))).toEqual([
      { video_id: a, count: 1, actor_name: 'Ben' },
      { video_id: b, count: 2, actor_name: 'Cy' },
    ]);
  });

  it('two senders racing over the same due rows send each one exactly once', async () => {
    const key = (await call(t.app, 'GET', '/api/push/key', undefined, owner.token)).json.public_key;
    const device = await svc.subscribe(key);
    expect((await call(t.app, 'POST', '/api/push/subscriptions', { endpoint: device.endpoint, keys: device.keys }, owner.token)).status).toBe(201);
    const videoId = await insertVideo(t.deps, owner.id);
    const commenters = await Promise.all(Array.from({ length: 6 }, (_, i) => createUser(t.deps, { name: `Commenter ${i}` })));
    // Due rows written with no sender running: both senders find all of them at their first look.
    await t.deps.db.updateTable('notifications').set({ push_due_at: null }).execute();
    for (const u of commenters)
      await call(
        t.app,
        'POST',
        '/api/sync/push',
        { client_id: randomUUID(), mutations: [{ id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId, content: `from ${u.name}` } }] },
        u.token,
      );

    const a = startPushSender(t.deps, { tickMs: 3_600_000 });
    const b = startPushSender(second, { tickMs: 3_600_000 });
    try {
      const claimed = await Promise.all([a.runOnce(), b.runOnce()]);
      expect(claimed[0] + claimed[1]).toBe(commenters.length);
      expect(await Promise.all([a.runOnce(), b.runOnce()])).toEqual([0, 0]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const delivered = (await svc.messages(device)).map((m) => m.body as string).sort();
    expect(delivered).toEqual(commenters.map((u) => `from ${u.name}`).sort());
  });
});
