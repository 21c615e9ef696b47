import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, TEST_PASSWORD_COST, type ServerProcess } from '../helpers/server-process';
import { http, refreshCookie, signUpVerifiedHttp, type HttpResult } from './auth-http-client';

// docs/decisions/0002-account-recovery-and-brute-force.md (brute force), over real HTTP against the real server process, with the
// bursts really concurrent (Promise.all). Distinct client IPs are distinct loopback source
// addresses (127.x.y.z), so the per-IP limit is keyed by the real TCP peer as in production.

const PASSWORD = 'the-right-password';
/**
 * The limits are reserved before a password is hashed, so what they allow does not depend on the
 * hash's cost: their servers hash at the tests' cost (PASSWORD_HASH_LOG2N 12, 32 times cheaper). The
 * bounded queue's burst needs the production cost: its hashes must outlast the burst's arrival.
 */
const CHEAP_HASHES = { LOG_LEVEL: 'error', ...TEST_PASSWORD_COST };

function count(results: HttpResult[], status: number): number {
  return results.filter((r) => r.status === status).length;
}

function expectRetryAfter(r: HttpResult): void {
  const seconds = Number(r.headers['retry-after']);
  expect(Number.isInteger(seconds) && seconds > 0).toBe(true);
}

describe('login limits reserved before the password is hashed', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ env: CHEAP_HASHES });
  });
  afterAll(() => server.stop());

  it('of 30 concurrent guesses for one account (the right one last), at most 5 are evaluated; the rest get 429 with Retry-After', async () => {
    await signUpVerifiedHttp(server, 'target@example.test', PASSWORD);
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 29 ? PASSWORD : `wrong-guess-${i}`));
    const results = await Promise.all(
      guesses.map((password, i) =>
        http(server, 'POST', '/api/auth/login', { body: { email: 'target@example.test', password }, from: `127.0.${1 + (i % 20)}.1` }),
      ),
    );
    const evaluated = count(results, 401) + count(results, 200);
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(count(results, 429)).toBe(30 - evaluated);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.json.error.code).toBe('rate_limited');
      expectRetryAfter(r);
    }
  });

  it('of 30 concurrent guesses from one IP across addresses, at most 20 are evaluated', async () => {
    // Sent in waves of 10 so that the hash queue (2 running + 8 waiting) is never what refuses them.
    const results: HttpResult[] = [];
    for (let wave = 0; wave < 3; wave++) {
      const batch = Array.from({ length: 10 }, (_, i) =>
        http(server, 'POST', '/api/auth/login', { body: { email: `stuffed-${wave}-${i}@example.test`, password: 'guess-1234' }, from: '127.0.99.9' }),
      );
      results.push(...(await Promise.all(batch)));
    }
    expect(count(results, 401)).toBe(20);
    expect(count(results, 429)).toBe(10);
  });
});

describe('the bounded hash queue', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ env: { LOG_LEVEL: 'error' } });
    await signUpVerifiedHttp(server, 'member@example.test', PASSWORD);
  });
  afterAll(() => server.stop());

  it('answers a burst of 40 logins for unknown addresses with 503 + Retry-After beyond the queue, and a member gets in', async () => {
    // 40 different client IPs, so no per-IP limit is involved: only the queue bound can refuse.
    const burst = Array.from({ length: 40 }, (_, i) =>
      http(server, 'POST', '/api/auth/login', { body: { email: `nobody-${i}@example.test`, password: 'guess-1234' }, from: `127.1.${i}.1` }),
    );
    const member = http(server, 'POST', '/api/auth/login', { body: { email: 'member@example.test', password: PASSWORD }, from: '127.2.0.1' });
    const results = await Promise.all(burst);
    const memberFirst = await member;

    expect(count(results, 401) + count(results, 503)).toBe(40);
    // At most 2 running + 8 waiting, plus what drained while the burst was arriving: far from all 40.
    expect(count(results, 503)).toBeGreaterThan(0);
    for (const r of results.filter((x) => x.status === 503)) {
      expect(r.json.error.code).toBe('busy');
      expectRetryAfter(r);
    }
    // The member was never queued behind the 40: answered at once (busy) or after at most 8 hashes.
    expect([200, 503]).toContain(memberFirst.status);
    if (memberFirst.status === 503) {
      await sleep(Number(memberFirst.headers['retry-after']) * 1000);
      const again = await http(server, 'POST', '/api/auth/login', { body: { email: 'member@example.test', password: PASSWORD }, from: '127.2.0.1' });
      expect(again.status).toBe(200);
    }
    // A refused attempt was never evaluated, so it counted against no one: the member's address is not locked.
    const after = await http(server, 'POST', '/api/auth/login', { body: { email: 'member@example.test', password: PASSWORD }, from: '127.2.0.2' });
    expect(after.status).toBe(200);
  });
});

describe('a device that signed in before', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ env: CHEAP_HASHES });
    await signUpVerifiedHttp(server, 'owner@example.test', PASSWORD);
  });
  afterAll(() => server.stop());

  it('still gets its login evaluated while failures from elsewhere lock the account; a new device does not', async () => {
    const first = await http(server, 'POST', '/api/auth/login', { body: { email: 'owner@example.test', password: PASSWORD }, from: '127.3.0.1' });
    expect(first.status).toBe(200);
    const cookie = refreshCookie(first)?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^vidi_refresh=/);

    const attack = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        http(server, 'POST', '/api/auth/login', { body: { email: 'owner@example.test', password: `attack-${i}` }, from: `127.4.${i}.1` }),
      ),
    );
    expect(count(attack, 429)).toBeGreaterThanOrEqual(5);

    const stranger = await http(server, 'POST', '/api/auth/login', { body: { email: 'owner@example.test', password: PASSWORD }, from: '127.5.0.1' });
    expect(stranger.status).toBe(429);

    // The owner's device (its refresh cookie) has its own budget: a typo is evaluated, then the right password works.
    const typo = await http(server, 'POST', '/api/auth/login', { body: { email: 'owner@example.test', password: 'typo-password' }, cookie, from: '127.3.0.1' });
    expect(typo.status).toBe(401);
    const owner = await http(server, 'POST', '/api/auth/login', { body: { email: 'owner@example.test', password: PASSWORD }, cookie, from: '127.3.0.1' });
    expect(owner.status).toBe(200);

    // A cookie of an ended session proves nothing any more.
    const ownerCookie = refreshCookie(owner)?.split(';')[0] ?? '';
    expect((await http(server, 'POST', '/api/auth/logout', { body: {}, cookie: ownerCookie })).status).toBe(204);
    const ended = await http(server, 'POST', '/api/auth/login', {
      body: { email: 'owner@example.test', password: PASSWORD },
      cookie: ownerCookie,
      from: '127.3.0.1',
    });
    expect(ended.status).toBe(429);
  });
});
