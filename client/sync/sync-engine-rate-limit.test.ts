import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/test-app';
import { createUser, type TestUser } from '#tests/helpers/users';
import { engineFor, insertVideo, listen, Network, newDevice } from '#tests/integration/sync-harness';
import type { SyncEngine } from './sync-engine';
import { DEFAULT_RATE_LIMIT_WAIT_MS, MAX_RATE_LIMIT_WAIT_MS, retryAfterMs } from '../lib/http/retry-after';

// The outbox honours 429 + Retry-After (docs/sync.md, "Push rate limit" and "Error classes").
// Were a 429 retried after 200 ms x attempt, with every new action cutting the wait short, a
// throttled device would hammer the server with pushes that are all refused again.

let t: TestApp;
let http: { url: string; close(): Promise<void> };
let alice: TestUser;
let bob: TestUser;
let engine: SyncEngine | undefined;

beforeAll(async () => {
  // Two pushes, then one a second: the third push of the test is refused with Retry-After: 1.
  t = await createTestApp({ PUSH_RATE_BURST: '2', PUSH_RATE_PER_MINUTE: '60' });
  http = await listen(t.app.fetch);
  alice = await createUser(t.deps, { name: 'Alice' });
  bob = await createUser(t.deps, { name: 'Bob' });
});
afterAll(async () => {
  await engine?.stop();
  await http.close();
  await t.close();
});

describe('sync engine and 429', () => {
  it('waits Retry-After without sending, then every queued mutation arrives exactly once, in order', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const net = new Network();
    const pushes: Array<{ status: number; retryAfter: string | null }> = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await net.fetch(input, init);
      if (String(input).endsWith('/api/sync/push')) pushes.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
      return res;
    };
    engine = engineFor(device.db, alice, http.url, net, { fetch: recording }).engine;
    await engine.start();
    expect(await engine.sync()).toBe(true);

    const ids = Array.from({ length: 6 }, () => randomUUID());
    const comment = (i: number) => engine!.mutate('addComment', { commentId: ids[i]!, videoId, content: `comment ${i}` });
    await comment(0);
    expect(await engine.sync()).toBe(true);
    await comment(1);
    expect(await engine.sync()).toBe(true);
    await comment(2);
    expect(await engine.sync()).toBe(false);
    expect(pushes.map((p) => p.status)).toEqual([200, 200, 429]);
    expect(pushes[2]!.retryAfter).toBe('1');
    // Asked to wait is not a failure to show.
    expect(engine.status.get().failing).toBe(false);

    // New actions during the wait are queued and shown, but do not cut the wait short.
    for (let i = 3; i < ids.length; i++) await comment(i);
    expect(await device.db.outbox.count()).toBe(4);

    await vi.waitFor(async () => expect(await device.db.outbox.count()).toBe(0), { timeout: 15_000, interval: 50 });
    // One refused push, then one push with everything that waited: nothing sent in between.
    expect(pushes.map((p) => p.status)).toEqual([200, 200, 429, 200]);

    const applied = await t.deps.db
      .selectFrom('change_log')
      .select(['entity_id'])
      .where('entity', '=', 'comment')
      .where('entity_id', 'in', ids)
      .orderBy('seq')
      .execute();
    expect(applied.map((r) => r.entity_id)).toEqual(ids);
    const rows = await t.deps.db.selectFrom('comments').select(['id', 'content']).where('video_id', '=', videoId).execute();
    expect(rows).toHaveLength(ids.length);
    expect(new Map(rows.map((r) => [r.id, r.content]))).toEqual(new Map(ids.map((id, i) => [id, `comment ${i}`])));
  });
});

describe('an honest device under the default limit', () => {
  it('flushes a long offline queue without meeting the limit (the outbox batches 100 a push)', async () => {
    const prod = await createTestApp();
    const server = await listen(prod.app.fetch);
    const member = await createUser(prod.deps);
    const owner = await createUser(prod.deps);
    let device: SyncEngine | undefined;
    try {
      const videoIds = await Promise.all(Array.from({ length: 10 }, () => insertVideo(prod.deps, owner.id)));
      const db = newDevice().db;
      const net = new Network();
      const statuses: number[] = [];
      const recording: typeof fetch = async (input, init) => {
        const res = await net.fetch(input, init);
        if (String(input).endsWith('/api/sync/push')) statuses.push(res.status);
        return res;
      };
      device = engineFor(db, member, server.url, net, { fetch: recording }).engine;
      await device.start();
      expect(await device.sync()).toBe(true);
      net.offline = true;
      // Sent one a push, 300 would meet the burst of 120 more than twice over; batched, it is 3 pushes.
      const QUEUED = 300;
      for (let i = 0; i < QUEUED; i++) {
        await device.mutate('addComment', { commentId: randomUUID(), videoId: videoIds[i % videoIds.length]!, content: `offline ${i}` });
      }
      net.offline = false;
      // The browser's `online` event does this: send now rather than at the next backoff step.
      await device.sync();
      await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0), { timeout: 20_000, interval: 100 });
      expect(statuses.filter((s) => s === 429)).toEqual([]);
      // About 3 pushes (100 each): a queue 40 times longer would still fit the burst of 120.
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(QUEUED / 100 + 2);
      const n = await prod.deps.db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(QUEUED);
    } finally {
      await device?.stop();
      await server.close();
      await prod.close();
    }
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-23T20:00:00Z');
  it('reads delay-seconds and HTTP dates, clamped', () => {
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Mon, 23 Nov 2026 20:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Mon, 23 Nov 2026 19:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('999999', now)).toBe(MAX_RATE_LIMIT_WAIT_MS);
  });
  it('falls back to a default when absent or unreadable', () => {
    expect(retryAfterMs(null, now)).toBe(DEFAULT_RATE_LIMIT_WAIT_MS);
    expect(retryAfterMs('soon', now)).toBe(DEFAULT_RATE_LIMIT_WAIT_MS);
    expect(retryAfterMs('-5', now)).toBe(DEFAULT_RATE_LIMIT_WAIT_MS);
  });
});
