import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '#server/config';
import { TokenBucketLimiter } from '#server/security/token-bucket';
import { realServer, type RealServer } from './hardening-server';

// docs/decisions/0004-secrets-at-rest-and-server-hardening.md: pushes are rate-limited per member (429 + Retry-After). Before, 1000 pushes in a loop
// were all applied.

const BURST = 20;
let s: RealServer;

beforeAll(async () => {
  // One push earned back per minute: nothing is refilled while the burst below runs, so the count is exact.
  s = await realServer({ PUSH_RATE_BURST: String(BURST), PUSH_RATE_PER_MINUTE: '1' });
});
afterAll(async () => {
  await s?.stop();
});

const renamePush = (token: string, name: string) =>
  s.json('POST', '/api/sync/push', { client_id: randomUUID(), mutations: [{ id: 1, name: 'updateProfileName', args: { name } }] }, token);

describe('push rate limit over real HTTP', () => {
  it('of a concurrent burst of 2 x burst pushes, exactly `burst` are applied; the rest get 429 + Retry-After and change nothing', async () => {
    const bot = await s.member();
    const answers = await Promise.all(Array.from({ length: BURST * 2 }, (_, i) => renamePush(bot.token, `Bot ${i}`)));
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(BURST);
    expect(limited).toHaveLength(BURST);
    for (const a of ok) expect(a.json.results[0].status).toBe('applied');
    for (const a of limited) {
      expect(a.json.error.code).toBe('rate_limited');
      // One push a minute: the next one is earned within 60 s.
      const retryAfter = Number(a.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Only the accepted pushes registered a client (a refused push is not applied at all).
    const clients = await s
      .db()
      .selectFrom('sync_clients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', bot.id)
      .executeTakeFirstOrThrow();
    expect(Number(clients.n)).toBe(BURST);
  });

  it('is per member: another member pushes while the first is throttled', async () => {
    const bot = await s.member();
    const other = await s.member();
    await Promise.all(Array.from({ length: BURST }, (_, i) => renamePush(bot.token, `Bot ${i}`)));
    const [limited, fine] = await Promise.all([renamePush(bot.token, 'One more'), renamePush(other.token, 'Honest Member')]);
    expect(limited.status).toBe(429);
    expect(fine.status).toBe(200);
    expect(fine.json.results[0].status).toBe('applied');
  });
});

describe('the limit itself', () => {
  it('defaults to a burst of 120 pushes and 60 a minute (a 12 000-mutation offline queue drains in one burst)', () => {
    expect(loadConfig({}).pushRate).toEqual({ burst: 120, perMinute: 60 });
    expect(() => loadConfig({ PUSH_RATE_BURST: '0' })).toThrow(/PUSH_RATE_BURST/);
  });

  it('earns pushes back at the refill rate, never above the burst', () => {
    const l = new TokenBucketLimiter({ burst: 3, perMinute: 60 });
    const t0 = 1_000_000;
    expect([l.take('m', t0), l.take('m', t0), l.take('m', t0)]).toEqual([0, 0, 0]);
    expect(l.take('m', t0)).toBe(1000);
    expect(l.take('m', t0 + 400)).toBe(600);
    expect(l.take('m', t0 + 1000)).toBe(0);
    // A long pause refills to the burst, not beyond it.
    const later = t0 + 3_600_000;
    expect([l.take('m', later), l.take('m', later), l.take('m', later), l.take('m', later) > 0]).toEqual([0, 0, 0, true]);
  });
});
