import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';

let t: TestApp;
let admin: TestUser;

const settingsBody = (over: { entry_fee?: object; payment?: object; ads?: object } = {}) => ({
  entry_fee: { enabled: false, amount_rupees: 0, ...over.entry_fee },
  payment: { provider: 'razorpay', razorpay_key_id: '', ...over.payment },
  ads: { client_id: '', slot_id: '', ...over.ads },
});

const rewardsBody = (over: object = {}) => ({
  best_user_prizes: Array.from({ length: 20 }, (_, i) => 2000 - i * 100),
  best_viewer_prizes: [500, 300, 100],
  distribution_date: '2026-12-31',
  ...over,
});

const put = (path: string, body: unknown) => call(t.app, 'PUT', path, body, admin.token);
const get = (path: string) => call(t.app, 'GET', path, undefined, admin.token);

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.deps, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

describe('public settings', () => {
  it('defaults: fee off and 0, razorpay, no ads, no date; no auth needed', async () => {
    const res = await call(t.app, 'GET', '/api/settings/public');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      entry_fee: { enabled: false, amount: 0 },
      payment_provider: 'razorpay',
      ads: { client_id: '', slot_id: '' },
      distribution_date: null,
    });
  });
});

describe('admin settings', () => {
  it('defaults are returned with the secrets as not set', async () => {
    const res = await get('/api/admin/settings');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      entry_fee: { enabled: false, amount_rupees: 0 },
      payment: { provider: 'razorpay', razorpay_key_id: '', razorpay_key_secret_set: false, razorpay_webhook_secret_set: false },
      ads: { client_id: '', slot_id: '' },
      limits: { viewer_daily_points_cap: 200, upload_daily_mib: 2048 },
    });
  });

  it('saves everything together; secrets are write-only and never come back', async () => {
    const res = await put(
      '/api/admin/settings',
      settingsBody({
        entry_fee: { enabled: true, amount_rupees: 499 },
        payment: { razorpay_key_id: 'rzp_test_abc123', razorpay_key_secret: 'very-secret-key', razorpay_webhook_secret: 'hook-secret' },
        ads: { client_id: 'ca-pub-123', slot_id: '987' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json.payment).toEqual({
      provider: 'razorpay',
      razorpay_key_id: 'rzp_test_abc123',
      razorpay_key_secret_set: true,
      razorpay_webhook_secret_set: true,
    });
    expect(res.text).not.toContain('very-secret-key');
    expect(res.text).not.toContain('hook-secret');

    const again = await get('/api/admin/settings');
    expect(again.json).toEqual(res.json);
    expect(again.text).not.toContain('very-secret-key');

    const pub = await call(t.app, 'GET', '/api/settings/public');
    expect(pub.json).toEqual({
      entry_fee: { enabled: true, amount: 499 },
      payment_provider: 'razorpay',
      ads: { client_id: 'ca-pub-123', slot_id: '987' },
      distribution_date: null,
    });
    expect(pub.text).not.toContain('rzp_test_abc123');

    const audit = await get('/api/admin/audit?limit=1');
    expect(audit.json.items[0]).toMatchObject({ action: 'settings.update', actor_id: admin.id });
    expect(audit.text).not.toContain('very-secret-key');
    expect(audit.text).not.toContain('hook-secret');
    expect(audit.json.items[0].details.secrets_changed).toEqual({ razorpay_key_secret: true, razorpay_webhook_secret: true });
  });

  it('an omitted secret stays; null clears only that one', async () => {
    const keep = await put(
      '/api/admin/settings',
      settingsBody({ entry_fee: { enabled: true, amount_rupees: 10 }, payment: { razorpay_key_id: 'rzp_test_abc123' } }),
    );
    expect(keep.status).toBe(200);
    expect(keep.json.payment.razorpay_key_secret_set).toBe(true);
    expect(keep.json.payment.razorpay_webhook_secret_set).toBe(true);

    const clear = await put('/api/admin/settings', settingsBody({ payment: { razorpay_key_id: 'rzp_test_abc123', razorpay_webhook_secret: null } }));
    expect(clear.status).toBe(200);
    expect(clear.json.payment.razorpay_key_secret_set).toBe(true);
    expect(clear.json.payment.razorpay_webhook_secret_set).toBe(false);
  });

  it('refuses to enable the fee while the chosen provider lacks its keys, and changes nothing', async () => {
    const before = await get('/api/admin/settings');
    const noSecret = await put(
      '/api/admin/settings',
      settingsBody({
        entry_fee: { enabled: true, amount_rupees: 100 },
        payment: { razorpay_key_id: 'rzp_test_abc123', razorpay_key_secret: null },
        ads: { client_id: 'changed' },
      }),
    );
    expect(noSecret.status).toBe(400);
    expect(noSecret.json.error.code).toBe('payment_not_configured');
    expect(noSecret.json.error.message).toMatch(/key id and key secret/);
    const noKeyId = await put('/api/admin/settings', settingsBody({ entry_fee: { enabled: true, amount_rupees: 100 }, payment: { razorpay_key_id: '' } }));
    expect(noKeyId.status).toBe(400);
    expect((await get('/api/admin/settings')).json).toEqual(before.json);

    // The sandbox needs no keys.
    const sandbox = await put(
      '/api/admin/settings',
      settingsBody({ entry_fee: { enabled: true, amount_rupees: 100 }, payment: { provider: 'sandbox', razorpay_key_id: '', razorpay_key_secret: null } }),
    );
    expect(sandbox.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/settings/public')).json.payment_provider).toBe('sandbox');
  });

  it.each([
    ['negative fee', settingsBody({ entry_fee: { amount_rupees: -1 } })],
    ['fractional fee', settingsBody({ entry_fee: { amount_rupees: 9.5 } })],
    ['fee as a string', settingsBody({ entry_fee: { amount_rupees: '100' } })],
    ['unknown provider', settingsBody({ payment: { provider: 'paypal' } })],
    ['empty secret', settingsBody({ payment: { razorpay_key_secret: '' } })],
    ['unknown field', { ...settingsBody(), extra: 1 }],
    ['ad id with markup', settingsBody({ ads: { client_id: '"><script>' } })],
    ['missing section', { entry_fee: { enabled: false, amount_rupees: 0 } }],
  ])('refuses a %s with 400 and changes nothing', async (_name, body) => {
    const before = await get('/api/admin/settings');
    const res = await put('/api/admin/settings', body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect((await get('/api/admin/settings')).json).toEqual(before.json);
  });
});

describe('rewards settings', () => {
  it('defaults to 20 + 3 zero prizes and no date', async () => {
    const fresh = await createTestApp();
    try {
      const a = await createUser(fresh.deps, { isAdmin: true });
      const res = await call(fresh.app, 'GET', '/api/admin/rewards', undefined, a.token);
      expect(res.json).toEqual({ best_user_prizes: Array(20).fill(0), best_viewer_prizes: [0, 0, 0], distribution_date: null });
    } finally {
      await fresh.close();
    }
  });

  it('saves prizes and the date; the date is public, and the change is logged for sync', async () => {
    const body = rewardsBody();
    const res = await put('/api/admin/rewards', body);
    expect(res.status).toBe(200);
    expect((await get('/api/admin/rewards')).json).toEqual(body);
    expect((await call(t.app, 'GET', '/api/settings/public')).json.distribution_date).toBe('2026-12-31');
    const rows = await t.deps.db.selectFrom('prizes').selectAll().where('board', '=', 'best_viewer').orderBy('rank').execute();
    expect(rows.map((r) => r.amount_rupees)).toEqual([500, 300, 100]);
    const changes = await t.deps.db.selectFrom('change_log').select('entity').orderBy('seq', 'desc').limit(2).execute();
    expect(changes.map((c) => c.entity).sort()).toEqual(['leaderboard', 'settings']);
    expect((await get('/api/admin/audit?limit=1')).json.items[0]).toMatchObject({ action: 'rewards.update' });

    const cleared = await put('/api/admin/rewards', rewardsBody({ distribution_date: null }));
    expect(cleared.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/settings/public')).json.distribution_date).toBeNull();
  });

  it.each([
    ['negative prize', rewardsBody({ best_viewer_prizes: [500, -1, 100] })],
    ['fractional prize', rewardsBody({ best_user_prizes: [1.5, ...Array(19).fill(0)] })],
    ['19 best-user prizes', rewardsBody({ best_user_prizes: Array(19).fill(0) })],
    ['21 best-user prizes', rewardsBody({ best_user_prizes: Array(21).fill(0) })],
    ['4 best-viewer prizes', rewardsBody({ best_viewer_prizes: [1, 2, 3, 4] })],
    ['impossible date', rewardsBody({ distribution_date: '2026-02-30' })],
    ['date in another format', rewardsBody({ distribution_date: '12/31/2026' })],
    ['prize as a string', rewardsBody({ best_viewer_prizes: ['1', 2, 3] })],
  ])('refuses a %s with 400 and changes nothing', async (_name, body) => {
    const before = await get('/api/admin/rewards');
    const res = await put('/api/admin/rewards', body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect((await get('/api/admin/rewards')).json).toEqual(before.json);
  });
});
