import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, openLink, signUpVerified, verificationLinkFor } from '../helpers/auth-flow';
import { readMailSink } from '../helpers/mail-sink';
import { call, createTestApp, type TestApp } from '../helpers/test-app';

// Single use of refresh, verification and reset tokens under real concurrency: on PostgreSQL the
// requests run at once on a pool of 20 connections (READ COMMITTED), on SQLite one transaction at a
// time. docs/decisions/0006-token-lifetimes-and-refresh-rotation.md: a spent refresh token presented
// again within 10 s is a lost response or a second tab (another successor), later it is theft.

const SECOND = 1000;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DATABASE_POOL_SIZE: '20' });
  // Opens the pool's 20 connections now: requests that first had to connect would start one by
  // one, milliseconds apart, and rarely meet in the database.
  await Promise.all(
    Array.from({ length: 20 }, () =>
      t.deps.db.transaction().execute(async (trx) => {
        await trx.selectFrom('profiles').select('id').limit(1).execute();
        await sleep(50);
      }),
    ),
  );
});
afterAll(() => t.close());

const refreshRows = (userId: string) => t.deps.db.selectFrom('refresh_tokens').selectAll().where('user_id', '=', userId).execute();
const refresh = (token: string) => call(t.app, 'POST', '/api/auth/refresh', { refresh_token: token });

describe('10 concurrent refreshes with one refresh token', () => {
  it('spend it exactly once: one successor, the others answered by the grace window, nothing revoked', async () => {
    const user = await signUpVerified(t, { email: 'tabs@example.test', password: 'tabs-password' });
    const session = await login(t, 'tabs@example.test', 'tabs-password');
    const presented = session.json.refresh_token as string;

    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(presented)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const issued = answers.map((a) => a.json.refresh_token as string);
    expect(new Set(issued).size).toBe(10);

    const rows = await refreshRows(user.id);
    const spent = rows.find((r) => r.token_hash === sha256(presented))!;
    const fresh = rows.filter((r) => issued.some((token) => sha256(token) === r.token_hash));
    expect(fresh).toHaveLength(10);
    expect(rows).toHaveLength(11);
    expect(rows.every((r) => r.family_id === spent.family_id && r.revoked_at === null)).toBe(true);
    // One rotation: the spent token names one successor; every new token is unused.
    expect(spent.used_at).not.toBeNull();
    expect(fresh.map((r) => r.id)).toContain(spent.replaced_by);
    expect(rows.filter((r) => r.replaced_by !== null)).toHaveLength(1);
    expect(fresh.every((r) => r.used_at === null)).toBe(true);
    // Each of them continues the session.
    expect((await refresh(issued[3]!)).status).toBe(200);
  });

  it('past the grace window: all 10 are refused (reuse, or the family it revoked), nothing is issued, the whole family is revoked', async () => {
    const user = await signUpVerified(t, { email: 'thief@example.test', password: 'thief-password' });
    const session = await login(t, 'thief@example.test', 'thief-password');
    const stolen = session.json.refresh_token as string;
    const successor = (await refresh(stolen)).json.refresh_token as string;
    t.advance(11 * SECOND);

    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(stolen)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    // Whoever reads the token after the revocation committed finds it revoked, not reused.
    const codes = answers.map((a) => a.json.error.code as string);
    expect(codes).toContain('token_reused');
    expect(codes.every((c) => c === 'token_reused' || c === 'invalid_refresh_token')).toBe(true);
    const rows = await refreshRows(user.id);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
    expect((await refresh(successor)).json.error.code).toBe('invalid_refresh_token');
  });
});

describe('5 concurrent uses of one e-mail link', () => {
  it('verification: of 5 uses of one link, and 5 of a sibling link, exactly one verifies; the others are told the link is spent', async () => {
    const signup = await call(t.app, 'POST', '/api/auth/signup', { name: 'Racer', email: 'verify-race@example.test', password: 'racer-password' });
    expect(signup.status).toBe(201);
    const first = verificationLinkFor(t, 'verify-race@example.test');
    expect((await call(t.app, 'POST', '/api/auth/resend-verification', { email: 'verify-race@example.test' })).status).toBe(202);
    const second = verificationLinkFor(t, 'verify-race@example.test');
    expect(second).not.toBe(first);
    // Using one link spends the other: all 10 race for one verification.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => openLink(t, i % 2 ? second : first)));
    const outcomes = answers.map((a) => `${a.status} ${a.headers.get('location')?.replace(/^.*verified=/, '')}`);
    expect(outcomes.sort()).toEqual([...Array(9).fill('302 0'), '302 1']);
    const profile = await t.deps.db.selectFrom('profiles').select('email_verified_at').where('id', '=', signup.json.user.id).executeTakeFirstOrThrow();
    expect(profile.email_verified_at).not.toBeNull();
  });

  it('password reset: of 5 resets with one link, and 5 with a sibling link, exactly one sets the password', async () => {
    await signUpVerified(t, { email: 'reset-race@example.test', password: 'old-password' });
    const links: string[] = [];
    for (let i = 0; i < 2; i++) {
      expect((await call(t.app, 'POST', '/api/auth/password/forgot', { email: 'reset-race@example.test' })).status).toBe(202);
      links.push(await resetTokenMail('reset-race@example.test', i + 1));
    }
    // Both links are open; using one spends the other, so all 10 race for one password change.
    const tries = Array.from({ length: 10 }, (_, i) => ({ token: links[i % 2]!, password: `new-password-${i}` }));
    const answers = await Promise.all(tries.map((body) => call(t.app, 'POST', '/api/auth/password/reset', body)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([a.status, a.json.error.code]).toEqual([400, 'invalid_reset_token']);
    const winner = tries[answers.findIndex((a) => a.status === 200)]!.password;
    expect((await login(t, 'reset-race@example.test', winner)).status).toBe(200);
    // Four losers only: a fifth failure would lock the account (the brute-force limit).
    const losers = tries.map((x) => x.password).filter((p) => p !== winner);
    for (const password of losers.slice(0, 4)) expect((await login(t, 'reset-race@example.test', password)).status, password).toBe(401);
  });
});

describe('logouts racing logouts everywhere', () => {
  it('end every session without an error (on PostgreSQL the two lock token rows through different indexes)', async () => {
    const user = await signUpVerified(t, { email: 'leaving@example.test', password: 'leaving-password' });
    const sessions = [];
    for (let i = 0; i < 6; i++) sessions.push((await login(t, 'leaving@example.test', 'leaving-password')).json);
    const logouts = sessions.map((s) => call(t.app, 'POST', '/api/auth/logout', { refresh_token: s.refresh_token }));
    const everywhere = sessions.slice(0, 4).map((s) => call(t.app, 'POST', '/api/auth/logout-all', undefined, s.access_token));
    const answers = await Promise.all([...logouts, ...everywhere]);
    expect(answers.slice(0, 6).map((a) => a.status)).toEqual(Array(6).fill(204));
    // A logout-all whose own session another request ended first is refused as signed out.
    for (const a of answers.slice(6)) expect([204, 401]).toContain(a.status);
    expect((await refreshRows(user.id)).every((r) => r.revoked_at !== null)).toBe(true);
  });
});

/** The token of the `nth` reset mail to `email` (the forgot answer does not wait for the mail). */
async function resetTokenMail(email: string, nth: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mails = readMailSink(t.dataDir).filter((m) => m.to.includes(email) && m.subject === 'Reset your Vidi password');
    const link = mails[nth - 1]?.links.find((l) => l.includes('/reset-password?token='));
    if (link) return new URL(link).searchParams.get('token')!;
    await sleep(50);
  }
  throw new Error(`no reset mail ${nth} to ${email}`);
}
