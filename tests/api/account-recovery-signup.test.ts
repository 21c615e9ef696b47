import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { SignJWT } from 'jose';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { login, openLink, signUpVerified, verificationLinkFor } from '../helpers/auth-flow';
import { lastMailTo } from '../helpers/mail-sink';
import { ENTRY_FEE_KEY } from '#server/settings/entry-fee';
import { loadSigningKeys } from '#server/auth/keys';
import { ACCESS_TOKEN_TTL_SECONDS } from '#server/auth/access-tokens';
import { startUnverifiedSweep } from '#server/auth/unverified-expiry';

// docs/decisions/0002-account-recovery-and-brute-force.md: sign-up that does not reveal taken addresses, the 72 h expiry of unverified accounts,
// and access tokens whose claims were not issued as ours are.

const HOUR = 60 * 60_000;

describe('sign-up does not reveal whether an address is taken', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers a taken address exactly like a free one (status, shape), and mails the owner sign-in and reset links', async () => {
    const owner = await signUpVerified(t, { name: 'Owner', email: 'owner@example.test', password: 'owner-password' });
    const free = await call(t.app, 'POST', '/api/auth/signup', { name: 'Someone', email: 'free@example.test', password: 'someone-pass' });
    const taken = await call(t.app, 'POST', '/api/auth/signup', { name: 'Someone', email: 'owner@example.test', password: 'someone-pass' });
    expect(taken.status).toBe(free.status);
    const shape = (j: any) => ({ keys: Object.keys(j).sort(), user: Object.keys(j.user).sort(), status: j.user.account_status, sent: j.verification_sent });
    expect(shape(taken.json)).toEqual(shape(free.json));
    expect(taken.json.user.name).toBe('Someone');
    // The id names no account: it is not the owner's, and it cannot be used for anything.
    expect(taken.json.user.id).not.toBe(owner.id);
    expect(await t.deps.db.selectFrom('profiles').select('id').where('id', '=', taken.json.user.id).execute()).toHaveLength(0);

    const mail = lastMailTo(t.dataDir, 'owner@example.test');
    expect(mail.subject).toBe('Someone tried to sign up to Vidi with your email');
    expect(mail.body).toContain('Owner');
    expect(mail.links).toContain(`${t.deps.config.publicUrl}/login`);
    expect(mail.links).toContain(`${t.deps.config.publicUrl}/forgot-password`);
    // Nothing changed for the owner: same password, still verified.
    expect((await login(t, 'owner@example.test', 'owner-password')).status).toBe(200);
    expect((await login(t, 'owner@example.test', 'someone-pass')).status).toBe(401);
  });

  it("with an entry fee, a taken address is answered 'pending_payment' like a new one; its decoy id opens no payment", async () => {
    await signUpVerified(t, { email: 'paid-up@example.test', password: 'paid-password' });
    await t.deps.db
      .insertInto('settings')
      .values({ key: ENTRY_FEE_KEY, value: JSON.stringify({ enabled: true, amount_rupees: 49 }), updated_at: t.deps.now() })
      .execute();
    try {
      const free = await call(t.app, 'POST', '/api/auth/signup', { name: 'New', email: 'new-payer@example.test', password: 'payer-password' });
      const taken = await call(t.app, 'POST', '/api/auth/signup', { name: 'New', email: 'paid-up@example.test', password: 'payer-password' });
      expect([free.status, taken.status]).toEqual([201, 201]);
      expect(taken.json.user.account_status).toBe('pending_payment');
      expect(free.json.user.account_status).toBe('pending_payment');
      const summary = await call(t.app, 'POST', '/api/payments/summary', { user_id: taken.json.user.id, email: 'paid-up@example.test' });
      expect(summary.status).toBe(404);
      // The paid-up account itself is untouched.
      const row = await t.deps.db.selectFrom('profiles').select('account_status').where('email', '=', 'paid-up@example.test').executeTakeFirstOrThrow();
      expect(row.account_status).toBe('active');
    } finally {
      await t.deps.db.deleteFrom('settings').where('key', '=', ENTRY_FEE_KEY).execute();
    }
  });
});

describe('unverified accounts expire after 72 h', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keeps a younger unverified account, then frees its address for a new sign-up after 72 h', async () => {
    const squat = await call(t.app, 'POST', '/api/auth/signup', { name: 'Squatter', email: 'victim@example.test', password: 'squatter-pass' });
    t.advance(71 * HOUR);
    const early = await call(t.app, 'POST', '/api/auth/signup', { name: 'Victim', email: 'victim@example.test', password: 'victim-password' });
    expect(early.status).toBe(201);
    expect(lastMailTo(t.dataDir, 'victim@example.test').subject).toBe('Someone tried to sign up to Vidi with your email');
    expect((await t.deps.db.selectFrom('profiles').select('id').where('email', '=', 'victim@example.test').executeTakeFirstOrThrow()).id).toBe(
      squat.json.user.id,
    );

    t.advance(HOUR + 1000);
    const real = await call(t.app, 'POST', '/api/auth/signup', { name: 'Victim', email: 'victim@example.test', password: 'victim-password' });
    expect(real.status).toBe(201);
    const rows = await t.deps.db.selectFrom('profiles').select(['id', 'name']).where('email', '=', 'victim@example.test').execute();
    expect(rows).toEqual([{ id: real.json.user.id, name: 'Victim' }]);
    expect(await t.deps.db.selectFrom('credentials').select('user_id').where('user_id', '=', squat.json.user.id).execute()).toHaveLength(0);
    // The new owner verifies with the fresh link and signs in with their own password.
    expect((await openLink(t, verificationLinkFor(t, 'victim@example.test'))).headers.get('location')).toMatch(/verified=1$/);
    expect((await login(t, 'victim@example.test', 'victim-password')).status).toBe(200);
  });

  it('the sweep started with the server removes expired unverified accounts only, and stops when told', async () => {
    const old = await call(t.app, 'POST', '/api/auth/signup', { name: 'Old', email: 'old-unverified@example.test', password: 'old-password' });
    await signUpVerified(t, { email: 'old-verified@example.test', password: 'old-password' });
    t.advance(73 * HOUR);
    const young = await call(t.app, 'POST', '/api/auth/signup', { name: 'Young', email: 'young-unverified@example.test', password: 'young-password' });
    const stop = startUnverifiedSweep(t.deps);
    try {
      for (let i = 0; i < 100; i++) {
        if (!(await t.deps.db.selectFrom('profiles').select('id').where('id', '=', old.json.user.id).executeTakeFirst())) break;
        await sleep(20);
      }
    } finally {
      stop();
    }
    const left = (await t.deps.db.selectFrom('profiles').select('email').execute()).map((r) => r.email);
    expect(left).not.toContain('old-unverified@example.test');
    expect(left).toContain('old-verified@example.test');
    expect(left).toContain('young-unverified@example.test');
    expect(young.status).toBe(201);
  });
});

describe('access tokens not issued as ours are', () => {
  let t: TestApp;
  let userId = '';
  let sign: (claims: { iat: number; exp: number }) => Promise<string>;
  beforeAll(async () => {
    t = await createTestApp();
    userId = (await signUpVerified(t, { email: 'claims@example.test', password: 'claims-password' })).id;
    const keys = await loadSigningKeys(t.dataDir, t.deps.config.jwtPrivateKey);
    sign = ({ iat, exp }) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
        .setIssuer(t.deps.config.publicUrl)
        .setAudience('vidi')
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(keys.privateKey);
  });
  afterAll(() => t.close());

  it('accepts a well-formed token signed with the real key, and refuses iat in the future or a lifetime over 15 minutes', async () => {
    const now = Math.floor(t.deps.now() / 1000);
    const ok = await sign({ iat: now, exp: now + ACCESS_TOKEN_TTL_SECONDS });
    expect((await call(t.app, 'GET', '/api/profile', undefined, ok)).status).toBe(200);

    const future = await sign({ iat: now + 3600, exp: now + 3600 + 60 });
    const longLived = await sign({ iat: now - 60, exp: now + 365 * 24 * 3600 });
    for (const token of [future, longLived]) {
      const res = await call(t.app, 'GET', '/api/profile', undefined, token);
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('invalid_token');
    }
  });
});
