import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { callFrom, login, signUpVerified } from '../helpers/auth-flow';
import { readMailSink, type SunkMail } from '../helpers/mail-sink';
import { startServer, TEST_PASSWORD_COST, type ServerProcess } from '../helpers/server-process';
import { http, signUpVerifiedHttp } from './auth-http-client';

// docs/decisions/0002-account-recovery-and-brute-force.md (account recovery): forgot -> mailed link -> reset, change password, logout everywhere,
// and the access tokens and event streams of ended sessions.

const HOUR = 60 * 60_000;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The forgot answer does not wait for the mail (same time for unknown addresses): poll the sink for it. */
async function resetMailTo(dataDir: string, email: string, after = 0): Promise<SunkMail> {
  for (let i = 0; i < 100; i++) {
    const mails = readMailSink(dataDir).filter((m) => m.to.includes(email) && m.subject === 'Reset your Vidi password');
    if (mails.length > after) return mails.at(-1)!;
    await sleep(50);
  }
  throw new Error(`no reset mail to ${email}`);
}

const tokenOf = (mail: SunkMail) => new URL(mail.links.find((l) => l.includes('/reset-password?token='))!).searchParams.get('token')!;

/** A stream registered as the SSE route registers its own, to see which sessions' streams get closed. */
function openStream(t: TestApp, userId: string, sessionId: string | undefined) {
  const stream = { closed: false };
  t.deps.liveStreams.open({ userId, sessionId, close: () => (stream.closed = true) });
  return stream;
}

function sessionIdOf(accessToken: string): string {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid;
}

describe('forgot password -> reset', () => {
  let t: TestApp;
  let userId = '';
  beforeAll(async () => {
    t = await createTestApp();
    userId = (await signUpVerified(t, { email: 'forgetful@example.test', password: 'old-password' })).id;
  });
  afterAll(() => t.close());

  it('answers 202 alike for a known and an unknown address, and mails only the known one a 1 h single-use link', async () => {
    const known = await call(t.app, 'POST', '/api/auth/password/forgot', { email: ' Forgetful@Example.test' });
    const unknown = await call(t.app, 'POST', '/api/auth/password/forgot', { email: 'nobody@example.test' });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.json).toEqual(known.json);
    const mail = await resetMailTo(t.dataDir, 'forgetful@example.test');
    const link = mail.links.find((l) => l.includes('/reset-password?token='))!;
    expect(link.startsWith(`${t.deps.config.publicUrl}/reset-password?token=`)).toBe(true);
    const stored = await t.deps.db.selectFrom('email_tokens').selectAll().where('user_id', '=', userId).where('purpose', '=', 'reset_password').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).toBe(sha256(tokenOf(mail)));
    expect(stored[0]?.expires_at).toBe((stored[0]?.created_at ?? 0) + HOUR);
    expect(readMailSink(t.dataDir).some((m) => m.to.includes('nobody@example.test'))).toBe(false);
  });

  it('resets once: ends every session (refresh, access tokens, event streams); the old password and the used link stop working', async () => {
    const a = await login(t, 'forgetful@example.test', 'old-password');
    const b = await login(t, 'forgetful@example.test', 'old-password');
    const streamA = openStream(t, userId, sessionIdOf(a.json.access_token));
    const streamB = openStream(t, userId, sessionIdOf(b.json.access_token));
    expect((await call(t.app, 'GET', '/api/profile', undefined, a.json.access_token)).status).toBe(200);

    const token = tokenOf(await resetMailTo(t.dataDir, 'forgetful@example.test'));
    const reset = await call(t.app, 'POST', '/api/auth/password/reset', { token, password: 'new-password' });
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual({ message: 'Password updated' });

    expect(streamA.closed && streamB.closed).toBe(true);
    for (const s of [a, b]) {
      expect((await call(t.app, 'GET', '/api/profile', undefined, s.json.access_token)).status).toBe(401);
      expect((await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: s.json.refresh_token })).status).toBe(401);
    }
    expect((await login(t, 'forgetful@example.test', 'old-password')).status).toBe(401);
    expect((await login(t, 'forgetful@example.test', 'new-password')).status).toBe(200);
    const again = await call(t.app, 'POST', '/api/auth/password/reset', { token, password: 'third-password' });
    expect(again.status).toBe(400);
    expect(again.json.error.code).toBe('invalid_reset_token');
  });

  it('refuses an expired, unknown or malformed token, and a weak password, changing nothing', async () => {
    const before = readMailSink(t.dataDir).filter((m) => m.subject === 'Reset your Vidi password').length;
    await call(t.app, 'POST', '/api/auth/password/forgot', { email: 'forgetful@example.test' });
    const token = tokenOf(await resetMailTo(t.dataDir, 'forgetful@example.test', before));
    const weak = await call(t.app, 'POST', '/api/auth/password/reset', { token, password: '123' });
    expect(weak.status).toBe(400);
    expect((await call(t.app, 'POST', '/api/auth/password/reset', { token: 'A'.repeat(43), password: 'whatever-1' })).json.error.code).toBe(
      'invalid_reset_token',
    );
    expect((await call(t.app, 'POST', '/api/auth/password/reset', { token: 'not a token!', password: 'whatever-1' })).status).toBe(400);
    expect((await call(t.app, 'POST', '/api/auth/password/reset', { token, password: 'whatever-1', extra: 1 })).status).toBe(400);
    t.advance(HOUR + 1000);
    const expired = await call(t.app, 'POST', '/api/auth/password/reset', { token, password: 'whatever-1' });
    expect(expired.status).toBe(400);
    expect(expired.json.error.code).toBe('invalid_reset_token');
    expect((await login(t, 'forgetful@example.test', 'new-password')).status).toBe(200);
  });

  it('limits reset requests: 3 per address and 20 per IP per hour, then 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++)
      expect((await callFrom(t.app, `10.9.0.${i}`, 'POST', '/api/auth/password/forgot', { email: 'limited@example.test' })).status).toBe(202);
    const byAddress = await callFrom(t.app, '10.9.0.9', 'POST', '/api/auth/password/forgot', { email: 'LIMITED@example.test' });
    expect(byAddress.status).toBe(429);
    expect(Number(byAddress.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++)
      expect((await callFrom(t.app, '10.9.1.1', 'POST', '/api/auth/password/forgot', { email: `someone-${i}@example.test` })).status).toBe(202);
    expect((await callFrom(t.app, '10.9.1.1', 'POST', '/api/auth/password/forgot', { email: 'someone-x@example.test' })).status).toBe(429);
  });

  it('clears the lock outsiders put on the account: after a reset the owner signs in at once', async () => {
    await signUpVerified(t, { email: 'besieged@example.test', password: 'first-password' });
    for (let i = 0; i < 5; i++) await callFrom(t.app, `10.8.0.${i}`, 'POST', '/api/auth/login', { email: 'besieged@example.test', password: `guess-${i}` });
    expect((await login(t, 'besieged@example.test', 'first-password')).status).toBe(429);
    await callFrom(t.app, '10.8.1.1', 'POST', '/api/auth/password/forgot', { email: 'besieged@example.test' });
    const token = tokenOf(await resetMailTo(t.dataDir, 'besieged@example.test'));
    expect((await call(t.app, 'POST', '/api/auth/password/reset', { token, password: 'second-password' })).status).toBe(200);
    expect((await login(t, 'besieged@example.test', 'second-password')).status).toBe(200);
  });
});

describe('change password and sign out everywhere', () => {
  let t: TestApp;
  let userId = '';
  beforeAll(async () => {
    t = await createTestApp();
    userId = (await signUpVerified(t, { email: 'changer@example.test', password: 'password-one' })).id;
  });
  afterAll(() => t.close());

  it('changes the password and ends the other sessions, keeping the caller’s (its token, refresh and stream)', async () => {
    const mine = await login(t, 'changer@example.test', 'password-one');
    const other = await login(t, 'changer@example.test', 'password-one');
    const myStream = openStream(t, userId, sessionIdOf(mine.json.access_token));
    const otherStream = openStream(t, userId, sessionIdOf(other.json.access_token));

    const res = await call(
      t.app,
      'POST',
      '/api/auth/password/change',
      { current_password: 'password-one', new_password: 'password-two' },
      mine.json.access_token,
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: 'Password updated' });
    expect(otherStream.closed).toBe(true);
    expect(myStream.closed).toBe(false);
    expect((await call(t.app, 'GET', '/api/profile', undefined, other.json.access_token)).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: other.json.refresh_token })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/profile', undefined, mine.json.access_token)).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: mine.json.refresh_token })).status).toBe(200);
    expect((await login(t, 'changer@example.test', 'password-one')).status).toBe(401);
    expect((await login(t, 'changer@example.test', 'password-two')).status).toBe(200);
  });

  it('refuses a wrong current password with 400 wrong_password (not 401: the session is fine), counted: the 6th try in 15 min gets 429', async () => {
    const s = await login(t, 'changer@example.test', 'password-two');
    const attempts = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        call(t.app, 'POST', '/api/auth/password/change', { current_password: `nope-${i}`, new_password: 'password-three' }, s.json.access_token),
      ),
    );
    const statuses = attempts.map((r) => r.status);
    expect(statuses.filter((x) => x === 400)).toHaveLength(5);
    expect(statuses.filter((x) => x === 429)).toHaveLength(2);
    expect(attempts.filter((r) => r.status === 400).every((r) => r.json.error.code === 'wrong_password')).toBe(true);
    expect((await login(t, 'changer@example.test', 'password-two')).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/auth/password/change', { current_password: 'password-two', new_password: '12' }, s.json.access_token)).status).toBe(
      400,
    );
    expect((await call(t.app, 'POST', '/api/auth/password/change', { current_password: 'password-two', new_password: 'password-three' })).status).toBe(401);
  });

  it('logout-all ends every session of the caller, this one included; logout ends only its own streams', async () => {
    const a = await login(t, 'changer@example.test', 'password-two');
    const b = await login(t, 'changer@example.test', 'password-two');
    const c = await login(t, 'changer@example.test', 'password-two');
    const streamA = openStream(t, userId, sessionIdOf(a.json.access_token));
    const streamB = openStream(t, userId, sessionIdOf(b.json.access_token));
    const streamC = openStream(t, userId, sessionIdOf(c.json.access_token));

    expect((await call(t.app, 'POST', '/api/auth/logout', { refresh_token: c.json.refresh_token })).status).toBe(204);
    expect(streamC.closed).toBe(true);
    expect(streamA.closed || streamB.closed).toBe(false);
    expect((await call(t.app, 'GET', '/api/profile', undefined, c.json.access_token)).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/profile', undefined, a.json.access_token)).status).toBe(200);

    const all = await call(t.app, 'POST', '/api/auth/logout-all', undefined, a.json.access_token);
    expect(all.status).toBe(204);
    expect(streamA.closed && streamB.closed).toBe(true);
    for (const s of [a, b]) {
      expect((await call(t.app, 'GET', '/api/profile', undefined, s.json.access_token)).status).toBe(401);
      expect((await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: s.json.refresh_token })).status).toBe(401);
    }
    expect((await call(t.app, 'POST', '/api/auth/logout-all')).status).toBe(401);
  });
});

describe('concurrent resets with one link (real HTTP)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // The race is over the link's single use, not the hash.
    server = await startServer({ env: { LOG_LEVEL: 'error', ...TEST_PASSWORD_COST } });
  });
  afterAll(() => server.stop());

  it('lets exactly one of 5 simultaneous resets with one token through', async () => {
    await signUpVerifiedHttp(server, 'racer@example.test', 'racer-password');
    expect((await http(server, 'POST', '/api/auth/password/forgot', { body: { email: 'racer@example.test' } })).status).toBe(202);
    const token = tokenOf(await resetMailTo(server.dataDir, 'racer@example.test'));
    const passwords = Array.from({ length: 5 }, (_, i) => `racer-new-${i}`);
    const results = await Promise.all(passwords.map((password) => http(server, 'POST', '/api/auth/password/reset', { body: { token, password } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400).every((r) => r.json.error.code === 'invalid_reset_token')).toBe(true);
    const winner = passwords[results.findIndex((r) => r.status === 200)]!;
    const logins = await Promise.all(passwords.map((password) => http(server, 'POST', '/api/auth/login', { body: { email: 'racer@example.test', password } })));
    expect(logins.map((r, i) => [passwords[i], r.status]).filter(([, s]) => s === 200)).toEqual([[winner, 200]]);
  });
});
