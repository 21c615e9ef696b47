import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser } from '../helpers/users';
import { callFrom, signUpVerified } from '../helpers/auth-flow';
import { readMailSink } from '../helpers/mail-sink';

const MINUTE = 60_000;

function expectLimited(res: { status: number; headers: Headers; json: any }, maxSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.json.error.code).toBe('rate_limited');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  return retryAfter;
}

describe('failed logins per account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('locks an account for 15 minutes after 5 failures, even for the right password, then lets it in', async () => {
    await signUpVerified(t, { email: 'locked@example.test', password: 'right-password' });
    await signUpVerified(t, { email: 'bystander@example.test', password: 'right-password' });
    for (let i = 0; i < 5; i++) {
      const res = await callFrom(t.app, `10.1.0.${i}`, 'POST', '/api/auth/login', { email: 'locked@example.test', password: `wrong-${i}` });
      expect(res.status).toBe(401);
    }
    // From yet another IP, with the right password and the address in another case: still locked.
    const locked = await callFrom(t.app, '10.1.1.1', 'POST', '/api/auth/login', { email: 'LOCKED@example.test', password: 'right-password' });
    const retryAfter = expectLimited(locked, 15 * 60);
    expect(retryAfter).toBeGreaterThan(14 * 60);

    const other = await callFrom(t.app, '10.1.1.1', 'POST', '/api/auth/login', { email: 'bystander@example.test', password: 'right-password' });
    expect(other.status).toBe(200);

    t.advance(10 * MINUTE);
    const stillLocked = await callFrom(t.app, '10.1.1.1', 'POST', '/api/auth/login', { email: 'locked@example.test', password: 'right-password' });
    expect(expectLimited(stillLocked, 5 * 60)).toBeLessThanOrEqual(5 * 60);

    t.advance(5 * MINUTE + 1000);
    const open = await callFrom(t.app, '10.1.1.1', 'POST', '/api/auth/login', { email: 'locked@example.test', password: 'right-password' });
    expect(open.status).toBe(200);
  }, 120_000);

  it('forgets earlier failures after a successful login', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await callFrom(t.app, '10.2.0.1', 'POST', '/api/auth/login', { email: 'bystander@example.test', password: 'nope-nope' })).status).toBe(401);
    }
    expect((await callFrom(t.app, '10.2.0.1', 'POST', '/api/auth/login', { email: 'bystander@example.test', password: 'right-password' })).status).toBe(200);
    // Without the reset this would be the fifth failure in the window, and the next login a 429.
    expect((await callFrom(t.app, '10.2.0.1', 'POST', '/api/auth/login', { email: 'bystander@example.test', password: 'nope-nope' })).status).toBe(401);
    expect((await callFrom(t.app, '10.2.0.1', 'POST', '/api/auth/login', { email: 'bystander@example.test', password: 'right-password' })).status).toBe(200);
  }, 120_000);
});

describe('failed logins per IP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('blocks an IP after 20 failures across addresses, and only that IP', async () => {
    // Two concurrent waves of 10: each fits the hash queue (2 running + 8 waiting), so none is answered 503.
    for (const wave of [0, 10]) {
      const attempts = Array.from({ length: 10 }, (_, i) =>
        callFrom(t.app, '192.0.2.7', 'POST', '/api/auth/login', { email: `stuffed-${wave + i}@example.test`, password: 'guess-123' }),
      );
      for (const res of await Promise.all(attempts)) expect(res.status).toBe(401);
    }

    const blocked = await callFrom(t.app, '192.0.2.7', 'POST', '/api/auth/login', { email: 'fresh@example.test', password: 'guess-123' });
    expectLimited(blocked, 15 * 60);
    const elsewhere = await callFrom(t.app, '192.0.2.8', 'POST', '/api/auth/login', { email: 'fresh@example.test', password: 'guess-123' });
    expect(elsewhere.status).toBe(401);

    t.advance(15 * MINUTE);
    const later = await callFrom(t.app, '192.0.2.7', 'POST', '/api/auth/login', { email: 'fresh@example.test', password: 'guess-123' });
    expect(later.status).toBe(401);
    // 22 scrypt hashes at the production cost: slow on a busy two-core machine.
  }, 120_000);
});

describe('sign-up and resend limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('allows 5 sign-up attempts per address per hour', async () => {
    const body = { name: 'Repeat', email: 'repeat@example.test', password: 'repeat-password' };
    expect((await callFrom(t.app, '198.51.100.1', 'POST', '/api/auth/signup', body)).status).toBe(201);
    for (let i = 2; i <= 5; i++) expect((await callFrom(t.app, `198.51.100.${i}`, 'POST', '/api/auth/signup', body)).status).toBe(201);
    expectLimited(await callFrom(t.app, '198.51.100.6', 'POST', '/api/auth/signup', { ...body, email: 'REPEAT@example.test' }), 60 * 60);
    t.advance(60 * MINUTE);
    expect((await callFrom(t.app, '198.51.100.7', 'POST', '/api/auth/signup', body)).status).toBe(201);
    expect(await t.deps.db.selectFrom('profiles').select('id').where('email', '=', 'repeat@example.test').execute()).toHaveLength(1);
  });

  it('allows 20 sign-ups per IP per hour', async () => {
    // Existing addresses (answered like free ones) count all the same.
    const users = await Promise.all(Array.from({ length: 21 }, () => createUser(t.deps)));
    for (const u of users.slice(0, 20)) {
      expect((await callFrom(t.app, '203.0.113.9', 'POST', '/api/auth/signup', { name: 'X', email: u.email, password: 'secret1' })).status).toBe(201);
    }
    const blocked = await callFrom(t.app, '203.0.113.9', 'POST', '/api/auth/signup', { name: 'New', email: 'new-ip@example.test', password: 'secret1' });
    expectLimited(blocked, 60 * 60);
    expect(await t.deps.db.selectFrom('profiles').select('id').where('email', '=', 'new-ip@example.test').execute()).toHaveLength(0);
    const other = await callFrom(t.app, '203.0.113.10', 'POST', '/api/auth/signup', { name: 'X', email: users[20]?.email ?? '', password: 'secret1' });
    expect(other.status).toBe(201);
  });

  it('allows 5 resends per address and 20 per IP per hour', async () => {
    await callFrom(t.app, '198.18.0.1', 'POST', '/api/auth/signup', { name: 'Waiting', email: 'waiting@example.test', password: 'waiting-1' });
    const mailsBefore = readMailSink(t.dataDir).length;
    for (let i = 0; i < 5; i++) {
      expect((await callFrom(t.app, `198.18.1.${i}`, 'POST', '/api/auth/resend-verification', { email: 'waiting@example.test' })).status).toBe(202);
    }
    expect(readMailSink(t.dataDir).length).toBe(mailsBefore + 5);
    expectLimited(await callFrom(t.app, '198.18.2.1', 'POST', '/api/auth/resend-verification', { email: 'waiting@example.test' }), 60 * 60);
    expect(readMailSink(t.dataDir).length).toBe(mailsBefore + 5);

    for (let i = 0; i < 20; i++) {
      expect((await callFrom(t.app, '198.18.3.3', 'POST', '/api/auth/resend-verification', { email: `nobody-${i}@example.test` })).status).toBe(202);
    }
    expectLimited(await callFrom(t.app, '198.18.3.3', 'POST', '/api/auth/resend-verification', { email: 'nobody-x@example.test' }), 60 * 60);
    expect((await callFrom(t.app, '198.18.3.4', 'POST', '/api/auth/resend-verification', { email: 'nobody-x@example.test' })).status).toBe(202);
  });
});
