import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createHmac } from 'node:crypto';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { razorpayWebhook, startRazorpayStandIn, type RazorpayStandIn } from '../helpers/razorpay-stand-in';

let t: TestApp;
let rzp: RazorpayStandIn;
let admin: TestUser;
const FEE = 250;
const WEBHOOK_SECRET = 'whsec-webhook-test';

beforeAll(async () => {
  rzp = await startRazorpayStandIn();
  t = await createTestApp({ RAZORPAY_API_BASE: rzp.url });
  admin = await createUser(t.deps, { isAdmin: true });
  const res = await call(
    t.app,
    'PUT',
    '/api/admin/settings',
    {
      entry_fee: { enabled: true, amount_rupees: FEE },
      payment: { provider: 'razorpay', razorpay_key_id: rzp.keyId, razorpay_key_secret: rzp.keySecret, razorpay_webhook_secret: WEBHOOK_SECRET },
      ads: { client_id: '', slot_id: '' },
    },
    admin.token,
  );
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});

/** A pending account with a Razorpay order, and the payment id Razorpay gave its payment. */
async function pendingWithOrder() {
  const email = `hook-${randomUUID().slice(0, 8)}@example.test`;
  const signup = await call(t.app, 'POST', '/api/auth/signup', { name: 'Hook Payer', email, password: 'secret-123' });
  expect(signup.status).toBe(201);
  const userId = signup.json.user.id as string;
  const o = await call(t.app, 'POST', '/api/payments/order', { user_id: userId, email });
  expect(o.status).toBe(200);
  const paid = rzp.pay(o.json.order_id);
  return { userId, orderId: o.json.order_id as string, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature };
}

async function deliver(d: { body: string; headers: Record<string, string> }) {
  const r = await t.app.request('/api/payments/webhook/razorpay', { method: 'POST', body: d.body, headers: d.headers });
  return { status: r.status, json: (await r.json()) as any };
}

async function accountStatus(userId: string) {
  return (await t.deps.db.selectFrom('profiles').select('account_status').where('id', '=', userId).executeTakeFirstOrThrow()).account_status;
}
async function payment(orderId: string) {
  return t.deps.db.selectFrom('payments').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
}
async function activations(userId: string) {
  return (await t.deps.db.selectFrom('change_log').select('seq').where('entity', '=', 'account').where('entity_id', '=', userId).execute()).length;
}

describe('razorpay webhook', () => {
  it('payment.captured with a valid signature over the raw body captures and activates', async () => {
    const p = await pendingWithOrder();
    const res = await deliver(razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 }));
    expect(res).toEqual({ status: 200, json: { status: 'captured' } });
    expect(await accountStatus(p.userId)).toBe('active');
    expect(await payment(p.orderId)).toMatchObject({ status: 'captured', payment_id: p.paymentId });
  });

  it('refuses a re-serialised body (same JSON, other bytes), a wrong secret and a missing signature', async () => {
    const p = await pendingWithOrder();
    const d = razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 });
    const reserialised = JSON.stringify(JSON.parse(d.body));
    expect(reserialised).not.toBe(d.body);
    const res = await deliver({ body: reserialised, headers: d.headers });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_signature');

    const wrongSecret = razorpayWebhook('another-secret', 'payment.captured', { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 });
    expect((await deliver(wrongSecret)).status).toBe(400);
    const { 'x-razorpay-signature': _drop, ...unsigned } = d.headers;
    expect((await deliver({ body: d.body, headers: unsigned })).status).toBe(400);
    expect(await accountStatus(p.userId)).toBe('pending_payment');
    // A refused delivery does not burn its event id: the genuine one is still processed.
    expect((await deliver(d)).json.status).toBe('captured');
  });

  it('a duplicate delivery (same event id) is processed once', async () => {
    const p = await pendingWithOrder();
    const d = razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 });
    expect((await deliver(d)).json.status).toBe('captured');
    const first = await payment(p.orderId);
    t.advance(1000);
    expect((await deliver(d)).json.status).toBe('duplicate');
    expect(await payment(p.orderId)).toEqual(first);
    expect(await activations(p.userId)).toBe(1);
  });

  it('out of order: payment.failed after the capture never un-pays; order.paid after it does not re-activate', async () => {
    const p = await pendingWithOrder();
    const a = { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 };
    expect((await deliver(razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', a))).json.status).toBe('captured');
    expect((await deliver(razorpayWebhook(WEBHOOK_SECRET, 'payment.failed', a))).json.status).toBe('failed_recorded');
    expect((await deliver(razorpayWebhook(WEBHOOK_SECRET, 'order.paid', a))).json.status).toBe('already_captured');
    expect(await payment(p.orderId)).toMatchObject({ status: 'captured' });
    expect(await accountStatus(p.userId)).toBe('active');
    expect(await activations(p.userId)).toBe(1);
  });

  it('a failed attempt followed by a successful one (order.paid first) captures', async () => {
    const p = await pendingWithOrder();
    expect(
      (await deliver(razorpayWebhook(WEBHOOK_SECRET, 'payment.failed', { orderId: p.orderId, paymentId: 'pay_failedattempt1', amount: FEE * 100 }))).status,
    ).toBe(200);
    expect((await payment(p.orderId)).status).toBe('failed');
    expect(await accountStatus(p.userId)).toBe('pending_payment');
    expect((await deliver(razorpayWebhook(WEBHOOK_SECRET, 'order.paid', { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 }))).json.status).toBe(
      'captured',
    );
    expect(await accountStatus(p.userId)).toBe('active');
  });

  it('webhook and Checkout confirmation of the same payment: one capture, one activation, in either order', async () => {
    for (const webhookFirst of [true, false]) {
      const p = await pendingWithOrder();
      const hook = () => deliver(razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 }));
      const confirm = () =>
        call(t.app, 'POST', '/api/payments/verify', { user_id: p.userId, order_id: p.orderId, payment_id: p.paymentId, signature: p.signature });
      if (webhookFirst) {
        expect((await hook()).json.status).toBe('captured');
        expect((await confirm()).status).toBe(200);
      } else {
        expect((await confirm()).status).toBe(200);
        expect((await hook()).json.status).toBe('already_captured');
      }
      expect(await activations(p.userId)).toBe(1);
      expect(await payment(p.orderId)).toMatchObject({ status: 'captured', payment_id: p.paymentId });
    }
  });

  it('ignores an event whose amount differs from the order, or whose order is unknown', async () => {
    const p = await pendingWithOrder();
    expect((await deliver(razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', { orderId: p.orderId, paymentId: p.paymentId, amount: 100 }))).json.status).toBe(
      'ignored',
    );
    expect(await accountStatus(p.userId)).toBe('pending_payment');
    expect(
      (await deliver(razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', { orderId: 'order_unknown00001', paymentId: 'pay_x', amount: 100 }))).json.status,
    ).toBe('ignored');
  });

  it('refuses a delivery without an event id, or that is not JSON', async () => {
    const p = await pendingWithOrder();
    const d = razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 });
    const { 'x-razorpay-event-id': _drop, ...noId } = d.headers;
    const res = await deliver({ body: d.body, headers: noId });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('missing_event_id');
    const junk = 'not json';
    const signed = { ...d.headers, 'x-razorpay-signature': createHmac('sha256', WEBHOOK_SECRET).update(junk).digest('hex') };
    expect((await deliver({ body: junk, headers: signed })).status).toBe(400);
    expect(await accountStatus(p.userId)).toBe('pending_payment');
  });

  it("answers 'Payment not configured' without a webhook secret", async () => {
    const p = await pendingWithOrder();
    const cleared = await call(
      t.app,
      'PUT',
      '/api/admin/settings',
      {
        entry_fee: { enabled: true, amount_rupees: FEE },
        payment: { provider: 'razorpay', razorpay_key_id: rzp.keyId, razorpay_webhook_secret: null },
        ads: { client_id: '', slot_id: '' },
      },
      admin.token,
    );
    expect(cleared.status).toBe(200);
    const res = await deliver(razorpayWebhook(WEBHOOK_SECRET, 'payment.captured', { orderId: p.orderId, paymentId: p.paymentId, amount: FEE * 100 }));
    expect(res.status).toBe(409);
    expect(res.json.error.message).toBe('Payment not configured');
    expect(await accountStatus(p.userId)).toBe('pending_payment');
  });
});
