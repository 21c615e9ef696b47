import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callFrom, signUpVerified } from '../helpers/auth-flow';
import { call } from '../helpers/test-app';
import { createUser } from '../helpers/users';
import { seededRandom } from '../helpers/seeded-random';
import { RateLimiter } from '#server/security/rate-limit';
import { TokenBucketLimiter } from '#server/security/token-bucket';
import { SharedBucketLimit, SharedWindowLimit, deleteExpiredLimits } from '#server/security/shared-limits';
import { twoInstances, type Instance } from './cluster-apps';

// Rate limits shared by the instances of one PostgreSQL database (the rate_limits table,
// server/security/shared-limits.ts): the counts are the database's, not each process's.

let cluster: Awaited<ReturnType<typeof twoInstances>>;
let a: Instance;
let b: Instance;

beforeAll(async () => {
  cluster = await twoInstances();
  ({ a, b } = cluster);
});
afterAll(() => cluster?.close());

describe('the 5-failure login limit across instances', () => {
  it('counts failures alternated between A and B together: the 6th attempt is refused on either, with the same Retry-After', async () => {
    await signUpVerified(a, { email: 'shared-lock@example.test', password: 'right-password' });
    for (let i = 0; i < 5; i++) {
      const through = i % 2 === 0 ? a : b;
      const res = await callFrom(through.app, `10.9.0.${i}`, 'POST', '/api/auth/login', { email: 'shared-lock@example.test', password: `wrong-${i}` });
      expect(res.status).toBe(401);
    }
    for (const through of [a, b]) {
      const res = await callFrom(through.app, '10.9.1.1', 'POST', '/api/auth/login', { email: 'shared-lock@example.test', password: 'right-password' });
      expect(res.status).toBe(429);
      expect(res.json.error.code).toBe('rate_limited');
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
  }, 120_000);

  it('a success on one instance forgets the failures counted on the other', async () => {
    await signUpVerified(a, { email: 'forgiven@example.test', password: 'right-password' });
    for (let i = 0; i < 4; i++) {
      expect((await callFrom(b.app, '10.9.2.1', 'POST', '/api/auth/login', { email: 'forgiven@example.test', password: 'nope-nope' })).status).toBe(401);
    }
    expect((await callFrom(a.app, '10.9.2.1', 'POST', '/api/auth/login', { email: 'forgiven@example.test', password: 'right-password' })).status).toBe(200);
    expect((await callFrom(b.app, '10.9.2.1', 'POST', '/api/auth/login', { email: 'forgiven@example.test', password: 'nope-nope' })).status).toBe(401);
    expect((await callFrom(b.app, '10.9.2.1', 'POST', '/api/auth/login', { email: 'forgiven@example.test', password: 'right-password' })).status).toBe(200);
  }, 120_000);
});

describe('the push limit across instances', () => {
  it('one bucket per member across A and B', async () => {
    // One push earned back per minute: nothing is refilled while the test runs, so the count is exact.
    const pair = await twoInstances({ PUSH_RATE_BURST: '10', PUSH_RATE_PER_MINUTE: '1' });
    try {
      const member = await createUser(pair.a.deps);
      const push = (through: Instance) =>
        call(
          through.app,
          'POST',
          '/api/sync/push',
          { client_id: randomUUID(), mutations: [{ id: 1, name: 'updateProfileName', args: { name: 'Busy' } }] },
          member.token,
        );
      const statuses = [];
      for (let i = 0; i < 10; i++) statuses.push((await push(i % 2 ? pair.a : pair.b)).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const over = await Promise.all([push(pair.a), push(pair.b)]);
      expect(over.map((r) => r.status)).toEqual([429, 429]);
      for (const r of over) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(50);
        expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      }
    } finally {
      await pair.close();
    }
  }, 120_000);
});

describe('the shared limits answer as the in-memory ones', () => {
  it('a fixed window: take, release and reset in a random order give the same states as RateLimiter', async () => {
    const rule = { limit: 3, windowMs: 1000 };
    const memory = new RateLimiter(rule);
    const shared = new SharedWindowLimit(a.deps.db, `test-window-${randomUUID()}`, rule);
    const random = seededRandom(16);
    let now = 1_000_000;
    for (let step = 0; step < 300; step++) {
      now += Math.floor(random() * 250) - 20; // now and then the clock steps back a little
      const key = `k${Math.floor(random() * 3)}`;
      const op = random();
      if (op < 0.7) expect(await shared.take(key, now), `take ${key} at step ${step}`).toEqual(memory.take(key, now));
      else if (op < 0.9) {
        await shared.release(key, now);
        memory.release(key, now);
      } else {
        await shared.reset(key);
        memory.reset(key);
      }
    }
  });

  it('a token bucket: the same waits as TokenBucketLimiter', async () => {
    const rule = { burst: 4, perMinute: 120 };
    const memory = new TokenBucketLimiter(rule);
    const shared = new SharedBucketLimit(a.deps.db, `test-bucket-${randomUUID()}`, rule);
    const random = seededRandom(7);
    let now = 5_000_000;
    for (let step = 0; step < 300; step++) {
      now += Math.floor(random() * 700) - 50;
      const key = `m${Math.floor(random() * 2)}`;
      expect(await shared.take(key, now), `take ${key} at step ${step}`).toBe(memory.take(key, now));
    }
  });

  it('counts concurrent takes exactly: of 30 at once against a limit of 5, 5 go through', async () => {
    const rule = { limit: 5, windowMs: 60_000 };
    const onA = new SharedWindowLimit(a.deps.db, 'test-concurrent', rule);
    const onB = new SharedWindowLimit(b.deps.db, 'test-concurrent', rule);
    const now = Date.now();
    const states = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? onA : onB).take('same', now)));
    expect(states.filter((s) => !s.blocked)).toHaveLength(5);
  });

  it('the sweep deletes the rows that have expired, and only those', async () => {
    const name = `test-sweep-${randomUUID()}`;
    const short = new SharedWindowLimit(a.deps.db, name, { limit: 1, windowMs: 1000 });
    const long = new SharedWindowLimit(a.deps.db, `${name}-long`, { limit: 1, windowMs: 60_000 });
    await short.take('x', 0);
    await long.take('x', 0);
    expect(await deleteExpiredLimits(a.deps.db, 1000)).toBeGreaterThanOrEqual(1);
    const left = await a.deps.db.selectFrom('rate_limits').select('limiter').where('limiter', 'like', `${name}%`).execute();
    expect(left.map((r) => r.limiter)).toEqual([`${name}-long`]);
    // A deleted window is as good as none: the key may act again.
    expect((await short.take('x', 1000)).blocked).toBe(false);
  });
});
