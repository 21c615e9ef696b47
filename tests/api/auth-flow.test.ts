import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { lastMailTo, readMailSink } from '../helpers/mail-sink';
import { login, openLink, setCookie, signUpVerified, verificationLinkFor } from '../helpers/auth-flow';
import { parsePasswordHash } from '#server/auth/password';
import { ENTRY_FEE_KEY } from '#server/settings/entry-fee';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';
const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

async function familyRows(t: TestApp, userId: string) {
  return t.deps.db.selectFrom('refresh_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

describe('sign-up -> verify -> login -> refresh -> rotate -> reuse detection -> logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The tests' cheap hash cost; the stored production parameters are checked below, on their own.
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const email = 'flow@example.test';
  const password = 'correct horse';
  let userId = '';
  let link = '';

  it('signs up with a hashed password, an unverified account and a verification mail', async () => {
    const res = await call(t.app, 'POST', '/api/auth/signup', { name: '  Flow Tester ', email: '  Flow@Example.TEST ', password });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ user: { id: expect.any(String), email, name: 'Flow Tester', account_status: 'active' }, verification_sent: true });
    userId = res.json.user.id;

    const profile = await t.deps.db.selectFrom('profiles').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ email, name: 'Flow Tester', is_admin: 0, is_active: 1, account_status: 'active', email_verified_at: null });

    const cred = await t.deps.db.selectFrom('credentials').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(cred.password_hash).not.toContain(password);
    expect(parsePasswordHash(cred.password_hash)?.salt.length).toBe(16);

    link = verificationLinkFor(t, email);
    expect(link.startsWith(`${t.deps.config.publicUrl}/api/auth/verify?token=`)).toBe(true);
    expect(Buffer.from(tokenOf(link), 'base64url').length).toBe(32);
    const stored = await t.deps.db.selectFrom('email_tokens').selectAll().where('user_id', '=', userId).execute();
    expect(stored).toHaveLength(1);
    // Only the hash is stored, and it is the hash of the mailed token.
    expect(stored[0]?.token_hash).toBe(sha256(tokenOf(link)));
    expect(stored[0]?.expires_at).toBe((stored[0]?.created_at ?? 0) + DAY);
  });

  it('answers a duplicate e-mail in any case or spacing like a fresh one, creates nothing and mails the owner', async () => {
    const res = await call(t.app, 'POST', '/api/auth/signup', { name: 'Other', email: ' FLOW@example.test', password: 'another1' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(['user', 'verification_sent']);
    expect(res.json.user.id).not.toBe(userId);
    expect(lastMailTo(t.dataDir, email).subject).toBe('Someone tried to sign up to Vidi with your email');
    const count = await t.deps.db
      .selectFrom('profiles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('refuses login before verification, but only to the right password', async () => {
    const right = await login(t, email, password);
    expect(right.status).toBe(403);
    expect(right.json.error.code).toBe('email_not_verified');
    const wrong = await login(t, email, 'wrong password');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: { code: 'invalid_credentials', message: 'Invalid login credentials' } });
  });

  it('verifies through the mailed link once, then the link is spent', async () => {
    const first = await openLink(t, link);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`${t.deps.config.publicUrl}/login?verified=1`);
    const profile = await t.deps.db.selectFrom('profiles').select('email_verified_at').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(profile.email_verified_at).toBeGreaterThan(0);

    const again = await openLink(t, link);
    expect(again.headers.get('location')).toBe(`${t.deps.config.publicUrl}/login?verified=0`);
  });

  let first: { access: string; refresh: string } = { access: '', refresh: '' };

  it('logs in with the e-mail in any case and returns the auth session and the refresh cookie', async () => {
    const res = await login(t, 'FLOW@example.test', password);
    expect(res.status).toBe(200);
    const now = Math.floor(t.deps.now() / 1000);
    expect(res.json).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 900,
      expires_at: expect.any(Number),
      token_type: 'bearer',
      user: { id: userId, email, name: 'Flow Tester', is_admin: false, is_active: true, account_status: 'active', created_at: expect.any(Number) },
    });
    expect(res.json.expires_at).toBeGreaterThanOrEqual(now + 899);
    expect(res.json.expires_at).toBeLessThanOrEqual(now + 901);
    expect(Buffer.from(res.json.refresh_token, 'base64url').length).toBe(32);

    const cookie = setCookie(res.headers, 'vidi_refresh') ?? '';
    expect(cookie).toContain(`vidi_refresh=${res.json.refresh_token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api/auth');
    expect(cookie).toContain(`Max-Age=${30 * 24 * 60 * 60}`);
    expect(cookie).not.toContain('Secure');

    const rows = await familyRows(t, userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(sha256(res.json.refresh_token));
    expect(rows[0]?.expires_at).toBe((rows[0]?.created_at ?? 0) + 30 * DAY);
    first = { access: res.json.access_token, refresh: res.json.refresh_token };

    const me = await call(t.app, 'GET', '/api/profile', undefined, first.access);
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ id: userId, email, name: 'Flow Tester', is_admin: false });
  });

  let second = '';
  let third = '';

  it('rotates the refresh token on every use (body, then cookie), within one family', async () => {
    const r1 = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: first.refresh });
    expect(r1.status).toBe(200);
    expect(r1.json.token_type).toBe('bearer');
    expect(r1.json.user.id).toBe(userId);
    second = r1.json.refresh_token;
    expect(second).not.toBe(first.refresh);
    expect(setCookie(r1.headers, 'vidi_refresh')).toContain(`vidi_refresh=${second}`);
    const me = await call(t.app, 'GET', '/api/profile', undefined, r1.json.access_token);
    expect(me.status).toBe(200);

    const r2 = await call(t.app, 'POST', '/api/auth/refresh', undefined, undefined, { cookie: `vidi_refresh=${second}` });
    expect(r2.status).toBe(200);
    third = r2.json.refresh_token;
    expect(new Set([first.refresh, second, third]).size).toBe(3);

    const rows = await familyRows(t, userId);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.family_id)).size).toBe(1);
    expect(rows.filter((r) => r.used_at !== null)).toHaveLength(2);
    expect(rows[0]?.replaced_by).toBe(rows[1]?.id);
  });

  it('answers a spent token within the 10 s grace window with a fresh session of the same family', async () => {
    t.advance(5 * SECOND);
    const res = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: second });
    expect(res.status).toBe(200);
    const rows = await familyRows(t, userId);
    const grace = rows.find((r) => r.token_hash === sha256(res.json.refresh_token));
    expect(grace?.family_id).toBe(rows[0]?.family_id);
    expect(rows.every((r) => r.revoked_at === null)).toBe(true);
  });

  it('revokes the whole family when a spent token comes back after the grace window', async () => {
    t.advance(11 * SECOND);
    const reuse = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: first.refresh });
    expect(reuse.status).toBe(401);
    expect(reuse.json.error.code).toBe('token_reused');
    expect(setCookie(reuse.headers, 'vidi_refresh')).toContain('Max-Age=0');

    // The newest token of the family, never used, is dead too.
    const newest = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: third });
    expect(newest.status).toBe(401);
    expect(newest.json.error.code).toBe('invalid_refresh_token');
    const rows = await familyRows(t, userId);
    expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
  });

  it('keeps other sign-ins alive when one family is revoked, and logout ends one with its cookie', async () => {
    const a = await login(t, email, password);
    const b = await login(t, email, password);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);

    const out = await call(t.app, 'POST', '/api/auth/logout', undefined, undefined, { cookie: `vidi_refresh=${a.json.refresh_token}` });
    expect(out.status).toBe(204);
    expect(setCookie(out.headers, 'vidi_refresh')).toMatch(/^vidi_refresh=; Max-Age=0; Path=\/api\/auth/);

    const afterLogout = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: a.json.refresh_token });
    expect(afterLogout.status).toBe(401);
    const other = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: b.json.refresh_token });
    expect(other.status).toBe(200);

    const outBody = await call(t.app, 'POST', '/api/auth/logout', { refresh_token: other.json.refresh_token });
    expect(outBody.status).toBe(204);
    const dead = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: other.json.refresh_token });
    expect(dead.status).toBe(401);
    // Logging out twice, or with nothing, is harmless.
    expect((await call(t.app, 'POST', '/api/auth/logout')).status).toBe(204);
  });

  it('refuses a refresh with no token (400) and an unknown one (401)', async () => {
    const none = await call(t.app, 'POST', '/api/auth/refresh', {});
    expect(none.status).toBe(400);
    expect(none.json.error.code).toBe('invalid_request');
    const unknown = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: 'x'.repeat(43) });
    expect(unknown.status).toBe(401);
    expect(unknown.json.error.code).toBe('invalid_refresh_token');
  });

  it('answers two tabs refreshing with the same token at once with two sessions of one family', async () => {
    const s = await login(t, email, password);
    const [a, b] = await Promise.all([
      call(t.app, 'POST', '/api/auth/refresh', { refresh_token: s.json.refresh_token }),
      call(t.app, 'POST', '/api/auth/refresh', { refresh_token: s.json.refresh_token }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json.refresh_token).not.toBe(b.json.refresh_token);
    const rows = await familyRows(t, userId);
    const family = rows.find((r) => r.token_hash === sha256(s.json.refresh_token))?.family_id;
    expect(rows.filter((r) => r.family_id === family)).toHaveLength(3);
  });

  it('expires refresh tokens after 30 days, and a later sign-in clears them out', async () => {
    const s = await login(t, email, password);
    t.advance(30 * DAY + SECOND);
    const res = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: s.json.refresh_token });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('invalid_refresh_token');
    expect((await login(t, email, password)).status).toBe(200);
    const rows = await familyRows(t, userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.expires_at).toBeGreaterThan(t.deps.now());
  });

  it('creates only one account from two simultaneous sign-ups with one address (both answered alike)', async () => {
    const body = { name: 'Racer', email: 'race@example.test', password: 'race-password' };
    const results = await Promise.all([call(t.app, 'POST', '/api/auth/signup', body), call(t.app, 'POST', '/api/auth/signup', body)]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(await t.deps.db.selectFrom('profiles').select('id').where('email', '=', 'race@example.test').execute()).toHaveLength(1);
  });

  it('gives an unknown e-mail exactly the answer of a wrong password', async () => {
    const unknown = await login(t, 'nobody@example.test', password);
    const wrong = await login(t, email, 'not the password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.json).toEqual(wrong.json);
    expect(unknown.json).toEqual({ error: { code: 'invalid_credentials', message: 'Invalid login credentials' } });
  });
});

describe('the stored password hash', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The production cost, as a deployment hashes (decision 0005).
    t = await createTestApp({}, { passwordCost: 'production' });
  });
  afterAll(() => t.close());

  it('is scrypt at the production parameters with a 16-byte salt, and the password logs in against it', async () => {
    const password = 'correct horse';
    const { id: userId } = await signUpVerified(t, { email: 'hash@example.test', password });
    const cred = await t.deps.db.selectFrom('credentials').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(cred.password_hash).not.toContain(password);
    const parsed = parsePasswordHash(cred.password_hash);
    expect(parsed?.params).toEqual({ log2N: 17, r: 8, p: 1, keyLength: 32 });
    expect(parsed?.salt.length).toBe(16);
    expect((await login(t, 'hash@example.test', password)).status).toBe(200);
  });
});

describe('e-mail verification tokens and resend', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('redirects bad, missing and expired tokens to verified=0 and leaves the account unverified', async () => {
    const base = t.deps.config.publicUrl;
    for (const path of ['/api/auth/verify?token=garbage', '/api/auth/verify', `/api/auth/verify?token=${'A'.repeat(43)}`]) {
      const res = await t.app.request(path, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${base}/login?verified=0`);
    }

    const su = await call(t.app, 'POST', '/api/auth/signup', { name: 'Late', email: 'late@example.test', password: 'late-password' });
    expect(su.status).toBe(201);
    const link = verificationLinkFor(t, 'late@example.test');
    t.advance(DAY + SECOND);
    const res = await openLink(t, link);
    expect(res.headers.get('location')).toBe(`${base}/login?verified=0`);
    const p = await t.deps.db.selectFrom('profiles').select('email_verified_at').where('id', '=', su.json.user.id).executeTakeFirstOrThrow();
    expect(p.email_verified_at).toBeNull();
    expect((await login(t, 'late@example.test', 'late-password')).json.error.code).toBe('email_not_verified');
  });

  it('resends only to unverified accounts, with one answer for every address', async () => {
    const before = readMailSink(t.dataDir).length;
    const known = await call(t.app, 'POST', '/api/auth/resend-verification', { email: ' LATE@example.test' });
    const unknown = await call(t.app, 'POST', '/api/auth/resend-verification', { email: 'ghost@example.test' });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.json).toEqual(known.json);
    expect(readMailSink(t.dataDir).length).toBe(before + 1);

    // The fresh link works; the older, expired one stays dead.
    const res = await openLink(t, verificationLinkFor(t, 'late@example.test'));
    expect(res.headers.get('location')).toMatch(/verified=1$/);
    expect((await login(t, 'late@example.test', 'late-password')).status).toBe(200);

    const verified = await call(t.app, 'POST', '/api/auth/resend-verification', { email: 'late@example.test' });
    expect(verified.status).toBe(202);
    expect(verified.json).toEqual(known.json);
    expect(readMailSink(t.dataDir).length).toBe(before + 1);
  });

  it('spends every older link once the address is verified', async () => {
    await call(t.app, 'POST', '/api/auth/signup', { name: 'Twice', email: 'twice@example.test', password: 'twice-password' });
    const older = verificationLinkFor(t, 'twice@example.test');
    await call(t.app, 'POST', '/api/auth/resend-verification', { email: 'twice@example.test' });
    const newer = verificationLinkFor(t, 'twice@example.test');
    expect(newer).not.toBe(older);
    expect((await openLink(t, newer)).headers.get('location')).toMatch(/verified=1$/);
    expect((await openLink(t, older)).headers.get('location')).toMatch(/verified=0$/);
  });
});

describe('suspension, deletion and the entry fee', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a suspended member at login, refresh and with an unexpired access token', async () => {
    const user = await signUpVerified(t, { email: 'sus@example.test', password: 'sus-password' });
    const session = await login(t, 'sus@example.test', 'sus-password');
    expect(session.status).toBe(200);
    await t.deps.db.updateTable('profiles').set({ is_active: 0 }).where('id', '=', user.id).execute();

    const again = await login(t, 'sus@example.test', 'sus-password');
    expect(again.status).toBe(403);
    expect(again.json.error.code).toBe('account_suspended');
    // Without the password nothing about the account is revealed.
    const wrong = await login(t, 'sus@example.test', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('invalid_credentials');

    const refresh = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: session.json.refresh_token });
    expect(refresh.status).toBe(403);
    expect(refresh.json.error.code).toBe('account_suspended');
    const me = await call(t.app, 'GET', '/api/profile', undefined, session.json.access_token);
    expect(me.status).toBe(403);
    expect(me.json.error.code).toBe('account_suspended');

    // Reactivated, the session continues: the refused refresh spent nothing.
    await t.deps.db.updateTable('profiles').set({ is_active: 1 }).where('id', '=', user.id).execute();
    const resumed = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: session.json.refresh_token });
    expect(resumed.status).toBe(200);
  });

  it('refuses refresh for a deleted user', async () => {
    const user = await signUpVerified(t, { email: 'gone@example.test', password: 'gone-password' });
    const session = await login(t, 'gone@example.test', 'gone-password');
    await t.deps.db.deleteFrom('profiles').where('id', '=', user.id).execute();
    const res = await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: session.json.refresh_token });
    expect(res.status).toBe(401);
    const me = await call(t.app, 'GET', '/api/profile', undefined, session.json.access_token);
    expect(me.status).toBe(401);
  });

  it("creates accounts as 'pending_payment' while an entry fee applies, and login answers payment_required with the user id", async () => {
    const now = t.deps.now();
    await t.deps.db
      .insertInto('settings')
      .values({ key: ENTRY_FEE_KEY, value: JSON.stringify({ enabled: true, amount_rupees: 49 }), updated_at: now })
      .execute();
    try {
      const su = await call(t.app, 'POST', '/api/auth/signup', { name: 'Payer', email: 'payer@example.test', password: 'payer-password' });
      expect(su.status).toBe(201);
      expect(su.json.user.account_status).toBe('pending_payment');
      expect(su.json.verification_sent).toBe(true);
      const res = await openLink(t, verificationLinkFor(t, 'payer@example.test'));
      expect(res.headers.get('location')).toMatch(/verified=1$/);

      const l = await login(t, 'payer@example.test', 'payer-password');
      expect(l.status).toBe(403);
      expect(l.json).toEqual({ error: { code: 'payment_required', message: expect.any(String) }, user_id: su.json.user.id });
      expect(setCookie(l.headers, 'vidi_refresh')).toBeUndefined();
      expect(await t.deps.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', su.json.user.id).execute()).toHaveLength(0);

      const wrong = await login(t, 'payer@example.test', 'wrong-password');
      expect(wrong.status).toBe(401);
    } finally {
      await t.deps.db.deleteFrom('settings').where('key', '=', ENTRY_FEE_KEY).execute();
    }
    const free = await call(t.app, 'POST', '/api/auth/signup', { name: 'Free', email: 'free@example.test', password: 'free-password' });
    expect(free.json.user.account_status).toBe('active');
  });
});

describe('profile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('updates the own name, logs a profile change and pokes every client after commit (the name shows on cards and comments)', async () => {
    const user = await signUpVerified(t, { name: 'Before', email: 'prof@example.test', password: 'prof-password' });
    const session = await login(t, 'prof@example.test', 'prof-password');
    const pokes: string[][] = [];
    const unsubscribe = t.deps.pokes.subscribe((s) => pokes.push(s));
    try {
      const res = await call(t.app, 'PATCH', '/api/profile', { name: '  After Name  ' }, session.json.access_token);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id: user.id, name: 'After Name', email: 'prof@example.test' });
    } finally {
      unsubscribe();
    }
    // The same scope as the sync rename: a name shows on everyone's cards and comments.
    expect(pokes).toEqual([['feed']]);
    const log = await t.deps.db.selectFrom('change_log').selectAll().where('entity', '=', 'profile').execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ entity_id: user.id, user_id: user.id, deleted: 0 });
    const me = await call(t.app, 'GET', '/api/profile', undefined, session.json.access_token);
    expect(me.json.name).toBe('After Name');
  });

  it('refuses empty, too long and control-character names, and anonymous callers', async () => {
    const session = await login(t, 'prof@example.test', 'prof-password');
    for (const name of ['', '   ', 'x'.repeat(81), 'bad\u0000name', 'line\nbreak', 'esc\u001b[31m']) {
      const res = await call(t.app, 'PATCH', '/api/profile', { name }, session.json.access_token);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
    }
    expect((await call(t.app, 'PATCH', '/api/profile', { name: 'x'.repeat(80) }, session.json.access_token)).status).toBe(200);
    expect((await call(t.app, 'PATCH', '/api/profile', { name: 'Nope' })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/profile')).status).toBe(401);
  });

  it('validates sign-up with the spec messages', async () => {
    const short = await call(t.app, 'POST', '/api/auth/signup', { name: 'Short', email: 'short@example.test', password: '12345' });
    expect(short.status).toBe(400);
    expect(short.json.error.message).toContain('Password must be at least 6 characters long');
    const long = await call(t.app, 'POST', '/api/auth/signup', { name: 'Long', email: 'long@example.test', password: 'x'.repeat(129) });
    expect(long.status).toBe(400);
    const badEmail = await call(t.app, 'POST', '/api/auth/signup', { name: 'Bad', email: 'not-an-email', password: 'secret1' });
    expect(badEmail.status).toBe(400);
    const longEmail = await call(t.app, 'POST', '/api/auth/signup', { name: 'Bad', email: `${'a'.repeat(250)}@x.io`, password: 'secret1' });
    expect(longEmail.status).toBe(400);
    const extra = await call(t.app, 'POST', '/api/auth/signup', { name: 'Extra', email: 'extra@example.test', password: 'secret1', is_admin: true });
    expect(extra.status).toBe(400);
    const n = await t.deps.db
      .selectFrom('profiles')
      .select('id')
      .where('email', 'in', ['short@example.test', 'long@example.test', 'extra@example.test'])
      .execute();
    expect(n).toHaveLength(0);
  });
});

describe('a PUBLIC_URL on https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://vidi.example' });
  });
  afterAll(() => t.close());

  it('marks the refresh cookie Secure and links mails to the public origin', async () => {
    await signUpVerified(t, { email: 'tls@example.test', password: 'tls-password' });
    expect(verificationLinkFor(t, 'tls@example.test').startsWith('https://vidi.example/api/auth/verify?token=')).toBe(true);
    const res = await login(t, 'tls@example.test', 'tls-password');
    expect(setCookie(res.headers, 'vidi_refresh')).toContain('Secure');
  });
});

describe('a mail server that is down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 1 on loopback refuses connections at once.
    t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1', LOG_LEVEL: 'silent' });
  });
  afterAll(() => t.close());

  it('still creates the account, says the mail was not sent, and resend answers as usual', async () => {
    const res = await call(t.app, 'POST', '/api/auth/signup', { name: 'Offline Mail', email: 'nomail@example.test', password: 'nomail-password' });
    expect(res.status).toBe(201);
    expect(res.json.verification_sent).toBe(false);
    expect(await t.deps.db.selectFrom('profiles').select('id').where('email', '=', 'nomail@example.test').execute()).toHaveLength(1);
    const resend = await call(t.app, 'POST', '/api/auth/resend-verification', { email: 'nomail@example.test' });
    expect(resend.status).toBe(202);
  }, 60_000);
});
