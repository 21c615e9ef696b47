import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRazorpayStandIn, razorpayWebhook, type RazorpayStandIn } from '../helpers/razorpay-stand-in';
import { MAX_ORDERS_PER_HOUR } from '#server/payments/orders';
import { testDialect } from '../helpers/test-database';
import { realServer, type RealServer } from './hardening-server';

// docs/decisions/0004-secrets-at-rest-and-server-hardening.md over real HTTP on a server started like `npm start`: file modes of a fresh DATA_DIR,
// provider secrets encrypted at rest, and the payment-order limit under a concurrent burst.

const KEY_SECRET_MARK = 'rzp-key-secret-';
const WEBHOOK_SECRET = `whsec-${randomUUID()}`;
let rzp: RazorpayStandIn;
let s: RealServer;
let admin: { id: string; token: string };
const freshDataDir = join(tmpdir(), `vidi-fresh-${randomUUID()}`, 'data');

beforeAll(async () => {
  rzp = await startRazorpayStandIn({ keySecret: `${KEY_SECRET_MARK}${randomUUID()}` });
  s = await realServer({ RAZORPAY_API_BASE: rzp.url }, freshDataDir);
  admin = await s.member({ isAdmin: true });
  const res = await s.json(
    'PUT',
    '/api/admin/settings',
    {
      entry_fee: { enabled: true, amount_rupees: 499 },
      payment: { provider: 'razorpay', razorpay_key_id: rzp.keyId, razorpay_key_secret: rzp.keySecret, razorpay_webhook_secret: WEBHOOK_SECRET },
      ads: { client_id: '', slot_id: '' },
    },
    admin.token,
  );
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await s?.stop();
  await rzp?.close();
  rmSync(join(freshDataDir, '..'), { recursive: true, force: true });
});

const storedPayment = async () => (await s.db().selectFrom('settings').select('value').where('key', '=', 'payment').executeTakeFirstOrThrow()).value;
const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

async function orderAndVerify() {
  const payer = await s.member({ status: 'pending_payment' });
  const order = await s.json('POST', '/api/payments/order', { user_id: payer.id, email: payer.email });
  expect(order.status).toBe(200);
  const paid = rzp.pay(order.json.order_id);
  const verify = await s.json('POST', '/api/payments/verify', {
    user_id: payer.id,
    order_id: paid.razorpay_order_id,
    payment_id: paid.razorpay_payment_id,
    signature: paid.razorpay_signature,
  });
  return { payer, order, verify };
}

describe('DATA_DIR is owner-only', () => {
  it('the database (SQLite: its file, WAL and SHM), the keys and the mail folder and files are 0600 / 0700', async () => {
    // A sign-up writes a verification mail into DATA_DIR/mail (no SMTP_URL).
    await s.json('POST', '/api/auth/signup', { name: 'Mail Owner', email: `mail-${randomUUID().slice(0, 8)}@example.test`, password: 'secret-123' });
    const mailDir = join(freshDataDir, 'mail');
    await vi.waitFor(() => expect(readdirSync(mailDir).length).toBeGreaterThan(0), { timeout: 10_000 });

    const dirs = [freshDataDir, join(freshDataDir, 'media'), join(freshDataDir, 'uploads'), mailDir];
    // On PostgreSQL the rows live in the cluster's own files, not under DATA_DIR.
    const databaseFiles = testDialect === 'sqlite' ? ['vidi.sqlite', 'vidi.sqlite-wal', 'vidi.sqlite-shm'] : [];
    // On PostgreSQL the keys come from the environment (shared by every instance), not DATA_DIR.
    const keyFiles = testDialect === 'sqlite' ? ['jwt-ed25519.pem', 'secrets.key'] : [];
    const files = [...databaseFiles, ...keyFiles].map((f) => join(freshDataDir, f));
    files.push(...readdirSync(mailDir).map((f) => join(mailDir, f)));
    expect(Object.fromEntries(dirs.map((d) => [d, mode(d)]))).toEqual(Object.fromEntries(dirs.map((d) => [d, '700'])));
    expect(Object.fromEntries(files.map((f) => [f, mode(f)]))).toEqual(Object.fromEntries(files.map((f) => [f, '600'])));
  });
});

describe('provider secrets at rest', () => {
  it('the settings row holds neither secret, the API never returns them, and payments still verify with them', async () => {
    const row = await storedPayment();
    expect(row).not.toContain(KEY_SECRET_MARK);
    expect(row).not.toContain(rzp.keySecret);
    expect(row).not.toContain(WEBHOOK_SECRET);
    expect(JSON.parse(row).razorpay_key_secret).toMatch(/^enc:v1:/);

    const view = await s.json('GET', '/api/admin/settings', undefined, admin.token);
    expect(JSON.stringify(view.json)).not.toContain(KEY_SECRET_MARK);
    expect(view.json.payment).toMatchObject({ razorpay_key_secret_set: true, razorpay_webhook_secret_set: true });

    // The order used the key secret (the stand-in checks Basic auth), and the Checkout signature is checked with it.
    const { verify } = await orderAndVerify();
    expect(verify.status).toBe(200);
    expect(verify.json).toEqual({ status: 'captured', account_status: 'active' });

    // The webhook secret decrypts too: a signed delivery is accepted, a wrongly signed one is not.
    const payer = await s.member({ status: 'pending_payment' });
    const order = await s.json('POST', '/api/payments/order', { user_id: payer.id, email: payer.email });
    const delivery = razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', {
      orderId: order.json.order_id,
      paymentId: `pay_${randomUUID().slice(0, 14)}`,
      amount: 49_900,
    });
    const hook = await fetch(`${s.server.url}/api/payments/webhook/razorpay`, { method: 'POST', body: delivery.body, headers: delivery.headers });
    expect(hook.status).toBe(200);
    expect(await s.db().selectFrom('profiles').select('account_status').where('id', '=', payer.id).executeTakeFirst()).toEqual({ account_status: 'active' });
  });

  it('a plain-text row from before keeps working and is encrypted at the next start', async () => {
    await s.server.stop();
    const plain = { provider: 'razorpay', razorpay_key_id: rzp.keyId, razorpay_key_secret: rzp.keySecret, razorpay_webhook_secret: WEBHOOK_SECRET };
    await s
      .db()
      .updateTable('settings')
      .set({ value: JSON.stringify(plain) })
      .where('key', '=', 'payment')
      .execute();
    expect(await storedPayment()).toContain(rzp.keySecret);
    await s.server.restart();

    expect(await storedPayment()).not.toContain(rzp.keySecret);
    expect(await storedPayment()).not.toContain(WEBHOOK_SECRET);
    const { verify } = await orderAndVerify();
    expect(verify.status).toBe(200);
  });
});

describe('the payment-order limit is atomic', () => {
  it(`of 20 parallel order requests for one account, at most ${MAX_ORDERS_PER_HOUR} create an order`, async () => {
    const payer = await s.member({ status: 'pending_payment' });
    const before = rzp.orders.size;
    const answers = await Promise.all(Array.from({ length: 20 }, () => s.json('POST', '/api/payments/order', { user_id: payer.id, email: payer.email })));
    const created = answers.filter((a) => a.status === 200);
    expect(created).toHaveLength(MAX_ORDERS_PER_HOUR);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(429);
      expect(a.json.error.code).toBe('rate_limited');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(new Set(created.map((a) => a.json.order_id)).size).toBe(MAX_ORDERS_PER_HOUR);
    expect(rzp.orders.size - before).toBe(MAX_ORDERS_PER_HOUR);
    const rows = await s.db().selectFrom('payments').select('order_id').where('user_id', '=', payer.id).execute();
    expect(rows.map((r) => r.order_id).sort()).toEqual(created.map((a) => a.json.order_id as string).sort());
  });
});
