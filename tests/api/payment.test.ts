import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { signPayment, startRazorpayStandIn, type RazorpayStandIn } from '../helpers/razorpay-stand-in';
import { paymentSetting } from '#server/settings/definitions';
import { readSetting, writeSetting } from '#server/settings/store';

let t: TestApp;
let rzp: RazorpayStandIn;
let admin: TestUser;
const FEE = 499;

async function configure(over: { provider?: 'razorpay' | 'sandbox'; enabled?: boolean; keySecret?: string | null } = {}) {
  const res = await call(
    t.app,
    'PUT',
    '/api/admin/settings',
    {
      entry_fee: { enabled: over.enabled ?? true, amount_rupees: FEE },
      payment: {
        provider: over.provider ?? 'razorpay',
        razorpay_key_id: rzp.keyId,
        ...(over.keySecret === undefined ? { razorpay_key_secret: rzp.keySecret } : { razorpay_key_secret: over.keySecret }),
        razorpay_webhook_secret: 'whsec-test',
      },
      ads: { client_id: '', slot_id: '' },
    },
    admin.token,
  );
  expect(res.status, res.text).toBe(200);
}

let n = 0;
async function signUpPending() {
  const email = `payer${++n}-${randomUUID().slice(0, 6)}@example.test`;
  const res = await call(t.app, 'POST', '/api/auth/signup', { name: `Payer ${n}`, email, password: 'secret-123' });
  expect(res.status, res.text).toBe(201);
  expect(res.json.user.account_status).toBe('pending_payment');
  return { id: res.json.user.id as string, email, name: `Payer ${n}`, password: 'secret-123' };
}

async function status(userId: string) {
  return (await t.deps.db.selectFrom('profiles').select('account_status').where('id', '=', userId).executeTakeFirstOrThrow()).account_status;
}

/** The member's own-profile changes (an `account` change: status and payment reach only their devices). */
async function profileChanges(userId: string) {
  return (await t.deps.db.selectFrom('change_log').select('seq').where('entity', '=', 'account').where('entity_id', '=', userId).execute()).length;
}

const order = (u: { id: string; email: string }) => call(t.app, 'POST', '/api/payments/order', { user_id: u.id, email: u.email });
const verify = (body: object) => call(t.app, 'POST', '/api/payments/verify', body);

beforeAll(async () => {
  rzp = await startRazorpayStandIn();
  t = await createTestApp({ RAZORPAY_API_BASE: rzp.url });
  admin = await createUser(t.deps, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
  await rzp?.close();
});
beforeEach(async () => {
  await configure();
});

describe('razorpay: order -> checkout -> verify', () => {
  it('creates the order at Razorpay with the server amount, verifies the signature, captures and activates', async () => {
    const u = await signUpPending();
    const loginBefore = await call(t.app, 'POST', '/api/auth/login', { email: u.email, password: u.password });
    expect(loginBefore.status).toBe(403);
    expect(loginBefore.json).toMatchObject({ error: { code: 'payment_required' }, user_id: u.id });

    const o = await order(u);
    expect(o.status, o.text).toBe(200);
    expect(o.json).toMatchObject({ provider: 'razorpay', key_id: rzp.keyId, amount_paise: FEE * 100, currency: 'INR', name: u.name, email: u.email });
    const sent = rzp.requests.at(-1);
    expect(sent).toMatchObject({ authorized: true, body: { amount: FEE * 100, currency: 'INR', receipt: u.id } });
    expect(rzp.orders.has(o.json.order_id)).toBe(true);
    expect(o.text).not.toContain(rzp.keySecret);

    const paid = rzp.pay(o.json.order_id);
    const v = await verify({ user_id: u.id, order_id: paid.razorpay_order_id, payment_id: paid.razorpay_payment_id, signature: paid.razorpay_signature });
    expect(v.status, v.text).toBe(200);
    expect(v.json).toEqual({ status: 'captured', account_status: 'active' });
    expect(await status(u.id)).toBe('active');
    const row = await t.deps.db.selectFrom('payments').selectAll().where('order_id', '=', o.json.order_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: u.id, provider: 'razorpay', status: 'captured', payment_id: paid.razorpay_payment_id, amount_paise: FEE * 100 });

    // Paid, but the e-mail is still to be verified (the success toast says so).
    const loginAfter = await call(t.app, 'POST', '/api/auth/login', { email: u.email, password: u.password });
    expect(loginAfter.json.error.code).toBe('email_not_verified');
  });

  it('the summary shows fee, provider, name and e-mail without creating an order', async () => {
    const u = await signUpPending();
    const before = rzp.requests.length;
    const res = await call(t.app, 'POST', '/api/payments/summary', { user_id: u.id, email: u.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ provider: 'razorpay', amount_rupees: FEE, configured: true, fee_applies: true, name: u.name, email: u.email });
    expect(rzp.requests.length).toBe(before);
    expect(await t.deps.db.selectFrom('payments').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
    expect((await call(t.app, 'POST', '/api/payments/summary', { user_id: u.id, email: 'other@example.test' })).status).toBe(404);
  });

  it('the amount is never taken from the client; only a pending account gets an order', async () => {
    const u = await signUpPending();
    const withAmount = await call(t.app, 'POST', '/api/payments/order', { user_id: u.id, email: u.email, amount_paise: 100 });
    expect(withAmount.status).toBe(400);

    const wrongEmail = await order({ id: u.id, email: 'someone@else.test' });
    expect(wrongEmail.status).toBe(404);
    expect(wrongEmail.json.error.code).toBe('account_not_found');
    expect((await order({ id: randomUUID(), email: u.email })).status).toBe(404);

    const active = await createUser(t.deps);
    const paidUp = await order(active);
    expect(paidUp.status).toBe(409);
    expect(paidUp.json.error.code).toBe('already_paid');
    expect((await call(t.app, 'POST', '/api/payments/order', { user_id: 'x y', email: 'a' })).status).toBe(400);
  });

  it('refuses a forged signature, and one signed with another secret', async () => {
    const u = await signUpPending();
    const o = await order(u);
    const forged = await verify({ user_id: u.id, order_id: o.json.order_id, payment_id: 'pay_forged000001', signature: 'ab'.repeat(32) });
    expect(forged.status).toBe(400);
    expect(forged.json.error.code).toBe('invalid_signature');
    const otherSecret = await verify({
      user_id: u.id,
      order_id: o.json.order_id,
      payment_id: 'pay_forged000002',
      signature: signPayment(o.json.order_id, 'pay_forged000002', 'not-the-secret'),
    });
    expect(otherSecret.status).toBe(400);
    const garbage = await verify({ user_id: u.id, order_id: o.json.order_id, payment_id: 'pay_forged000003', signature: 'zz' });
    expect(garbage.status).toBe(400);
    expect(await status(u.id)).toBe('pending_payment');
    expect((await t.deps.db.selectFrom('payments').select('status').where('order_id', '=', o.json.order_id).executeTakeFirstOrThrow()).status).toBe('created');
  });

  it("refuses someone else's order id, and a real signature replayed onto another order", async () => {
    const alice = await signUpPending();
    const bob = await signUpPending();
    const aliceOrder = (await order(alice)).json.order_id as string;
    const bobOrder = (await order(bob)).json.order_id as string;
    const alicePaid = rzp.pay(aliceOrder);

    // Bob presents Alice's paid order as his own.
    const stolen = await verify({ user_id: bob.id, order_id: aliceOrder, payment_id: alicePaid.razorpay_payment_id, signature: alicePaid.razorpay_signature });
    expect(stolen.status).toBe(400);
    expect(stolen.json.error.code).toBe('order_mismatch');
    // Bob replays Alice's payment onto his own order.
    const replayed = await verify({ user_id: bob.id, order_id: bobOrder, payment_id: alicePaid.razorpay_payment_id, signature: alicePaid.razorpay_signature });
    expect(replayed.status).toBe(400);
    expect(replayed.json.error.code).toBe('invalid_signature');
    expect(await status(bob.id)).toBe('pending_payment');
    expect(await status(alice.id)).toBe('pending_payment');
  });

  it('a replayed confirmation is harmless: one capture, one activation', async () => {
    const u = await signUpPending();
    const o = await order(u);
    const paid = rzp.pay(o.json.order_id);
    const body = { user_id: u.id, order_id: paid.razorpay_order_id, payment_id: paid.razorpay_payment_id, signature: paid.razorpay_signature };
    expect((await verify(body)).status).toBe(200);
    const first = await t.deps.db.selectFrom('payments').selectAll().where('order_id', '=', o.json.order_id).executeTakeFirstOrThrow();
    t.advance(5000);
    const again = await verify(body);
    expect(again.status).toBe(200);
    expect(again.json.status).toBe('captured');
    const second = await t.deps.db.selectFrom('payments').selectAll().where('order_id', '=', o.json.order_id).executeTakeFirstOrThrow();
    expect(second).toEqual(first);
    expect(await profileChanges(u.id)).toBe(1);
    // A paid account cannot start another order (no double charge).
    expect((await order(u)).status).toBe(409);
  });

  it("'Payment not configured' when the keys disappear: no order, no activation", async () => {
    const u = await signUpPending();
    const o = await order(u);
    const paid = rzp.pay(o.json.order_id);
    const current = await readSetting(t.deps.db, paymentSetting);
    await writeSetting(t.deps.db, paymentSetting, { ...current, razorpay_key_secret: '' }, t.deps.now());

    const again = await order(u);
    expect(again.status).toBe(409);
    expect(again.json.error).toEqual({ code: 'payment_not_configured', message: 'Payment not configured' });
    const v = await verify({ user_id: u.id, order_id: paid.razorpay_order_id, payment_id: paid.razorpay_payment_id, signature: paid.razorpay_signature });
    expect(v.status).toBe(409);
    expect(v.json.error.message).toBe('Payment not configured');
    expect(await status(u.id)).toBe('pending_payment');
  });

  it('keys Razorpay refuses give a clear 502 and store no order', async () => {
    const u = await signUpPending();
    const current = await readSetting(t.deps.db, paymentSetting);
    await writeSetting(t.deps.db, paymentSetting, { ...current, razorpay_key_secret: 'wrong-secret' }, t.deps.now());
    const before = rzp.requests.length;
    const o = await order(u);
    expect(o.status).toBe(502);
    expect(o.json.error.code).toBe('payment_provider_error');
    expect(rzp.requests.length).toBe(before + 1);
    expect(rzp.requests.at(-1)?.authorized).toBe(false);
    expect(await t.deps.db.selectFrom('payments').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });
});

describe('order limits', () => {
  it('an account can start at most 10 orders an hour (each one calls the provider)', async () => {
    const u = await signUpPending();
    for (let i = 0; i < 10; i++) expect((await order(u)).status).toBe(200);
    const before = rzp.requests.length;
    const refused = await order(u);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(rzp.requests.length).toBe(before);
    t.advance(60 * 60 * 1000 + 1000);
    expect((await order(u)).status).toBe(200);
    // The hour also expired the admin's access token.
    admin.token = (await t.deps.tokens.issue(admin.id)).token;
  });
});

describe('sandbox (test mode)', () => {
  it('completes without money and activates once; not counted as revenue', async () => {
    await configure({ provider: 'sandbox' });
    const revenueBefore = (await call(t.app, 'GET', '/api/admin/stats', undefined, admin.token)).json.revenue_rupees;
    const u = await signUpPending();
    const o = await order(u);
    expect(o.status).toBe(200);
    expect(o.json).toMatchObject({ provider: 'sandbox', key_id: null, amount_paise: FEE * 100, name: u.name, email: u.email });

    expect(
      (await call(t.app, 'POST', '/api/payments/sandbox/complete', { user_id: u.id, email: 'wrong@example.test', order_id: o.json.order_id })).status,
    ).toBe(404);
    const done = await call(t.app, 'POST', '/api/payments/sandbox/complete', { user_id: u.id, email: u.email, order_id: o.json.order_id });
    expect(done.status).toBe(200);
    expect(await status(u.id)).toBe('active');
    expect((await call(t.app, 'POST', '/api/payments/sandbox/complete', { user_id: u.id, email: u.email, order_id: o.json.order_id })).status).toBe(200);
    expect(await profileChanges(u.id)).toBe(1);
    expect((await call(t.app, 'GET', '/api/admin/stats', undefined, admin.token)).json.revenue_rupees).toBe(revenueBefore);
  });

  it('a sandbox order cannot complete once the provider is Razorpay, and a Razorpay order cannot complete as sandbox', async () => {
    await configure({ provider: 'sandbox' });
    const u = await signUpPending();
    const sandboxOrder = (await order(u)).json.order_id;
    await configure({ provider: 'razorpay' });
    const refused = await call(t.app, 'POST', '/api/payments/sandbox/complete', { user_id: u.id, email: u.email, order_id: sandboxOrder });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toBe('Payment not configured');
    const rzpOrder = (await order(u)).json.order_id;
    await configure({ provider: 'sandbox' });
    const wrongKind = await call(t.app, 'POST', '/api/payments/sandbox/complete', { user_id: u.id, email: u.email, order_id: rzpOrder });
    expect(wrongKind.status).toBe(400);
    expect(await status(u.id)).toBe('pending_payment');
  });

  it('when the fee is switched off after sign-up, the account is activated without an order', async () => {
    const u = await signUpPending();
    await configure({ enabled: false });
    const o = await order(u);
    expect(o.status).toBe(200);
    expect(o.json).toMatchObject({ provider: 'none', order_id: null, amount_paise: 0 });
    expect(await status(u.id)).toBe('active');
  });
});

describe('revenue', () => {
  it('is the sum of captured Razorpay payments', async () => {
    const before = (await call(t.app, 'GET', '/api/admin/stats', undefined, admin.token)).json.revenue_rupees;
    const a = await signUpPending();
    const b = await signUpPending();
    await order(b); // created, never paid: not revenue
    const o = await order(a);
    const paid = rzp.pay(o.json.order_id);
    await verify({ user_id: a.id, order_id: paid.razorpay_order_id, payment_id: paid.razorpay_payment_id, signature: paid.razorpay_signature });
    const after = (await call(t.app, 'GET', '/api/admin/stats', undefined, admin.token)).json.revenue_rupees;
    expect(after).toBe(before + FEE);
  });
});
