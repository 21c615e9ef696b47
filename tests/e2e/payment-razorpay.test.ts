import { describe, expect } from 'vitest';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { startRazorpayStandIn, type RazorpayStandIn } from '../helpers/razorpay-stand-in';
import { pwaTest } from './fixtures';
import type { ServerApi } from './server-api';
import { PASSWORD, uniqueEmail } from './member-session';
import { toastText, closeToast } from './toasts';

const FEE = 150;

/**
 * Checkout's script cannot be fetched here (no Internet), so the browser gets a stand-in with the
 * same surface (new Razorpay(options), on('payment.failed'), open()) at the real URL. Paying asks
 * the Razorpay stand-in to sign the payment with the key secret, exactly as Razorpay does.
 */
const CHECKOUT_STAND_IN = `
window.Razorpay = class {
  constructor(options) { this.options = options; this.handlers = {}; }
  on(event, cb) { this.handlers[event] = cb; }
  open() {
    const o = this.options;
    window.__checkoutOpened = { key: o.key, order_id: o.order_id, amount: o.amount, currency: o.currency, prefill: o.prefill };
    const mode = window.__checkoutMode || 'pay';
    if (mode === 'fail') return this.handlers['payment.failed']({ error: { description: 'Your card was declined.' } });
    if (mode === 'dismiss') return o.modal.ondismiss();
    window.rzpStandInPay(o.order_id).then((r) => {
      if (mode === 'forge') r.razorpay_signature = r.razorpay_signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
      o.handler(r);
    });
  }
};`;

const test = pwaTest()
  // The Razorpay the server talks to: a stand-in on loopback, its address in the server's env.
  .extend('rzp', { scope: 'file' }, async ({}, { onCleanup }): Promise<RazorpayStandIn> => {
    const rzp = await startRazorpayStandIn();
    onCleanup(() => rzp.close());
    return rzp;
  })
  .extend('serverEnv', { scope: 'file' }, async ({ rzp }) => ({ RAZORPAY_API_BASE: rzp.url }))
  // The tests follow one visitor's page, with the Checkout stand-in, from sign-up to payment: made once per file.
  .extend('visitor', { scope: 'file' }, async ({ browser, rzp }, { onCleanup }) => {
    const context = await browser.newContext();
    onCleanup(() => context.close());
    await context.route('https://checkout.razorpay.com/v1/checkout.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: CHECKOUT_STAND_IN }),
    );
    await context.exposeFunction('rzpStandInPay', (orderId: string) => rzp.pay(orderId));
    return { page: await context.newPage() };
  });

describe.skipIf(!hasChromium)('entry fee through Razorpay Checkout', () => {
  const email = uniqueEmail('rzp');

  const accountStatus = async (api: ServerApi) => (await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD })).json?.error?.code;

  test.beforeAll(async ({ api, admin, rzp }) => {
    const saved = await api('PUT', '/api/admin/settings', admin.token, {
      entry_fee: { enabled: true, amount_rupees: FEE },
      payment: { provider: 'razorpay', razorpay_key_id: rzp.keyId, razorpay_key_secret: rzp.keySecret },
      ads: { client_id: '', slot_id: '' },
    });
    expect(saved.status).toBe(200);
  });

  test('shows the Razorpay order summary after sign-up', async ({ server, visitor: { page } }) => {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Full Name').fill('Ravi Razorpay');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await page.waitForURL('**/payment');
    await page.getByText('Secured by Razorpay').waitFor();
    await page.getByRole('region', { name: 'Order Summary' }).getByText(`₹${FEE}`).waitFor();
    expect(await page.getByText(/sandbox payment/).count()).toBe(0);
    await saveScreenshot(page, 'payment-razorpay');
  });

  test("a failed or forged payment shows 'Payment failed' and the account stays unpaid", async ({ api, visitor: { page } }) => {
    await page.evaluate(() => ((window as any).__checkoutMode = 'fail'));
    await page.getByRole('button', { name: `Pay ₹${FEE}` }).click();
    await toastText(page, 'Payment failed');
    await page.getByText('Something went wrong. Please try again.').waitFor();
    await closeToast(page);

    await page.evaluate(() => ((window as any).__checkoutMode = 'forge'));
    await page.getByRole('button', { name: `Pay ₹${FEE}` }).click();
    await toastText(page, 'Payment failed');
    await closeToast(page);
    expect(await accountStatus(api)).toBe('payment_required');

    // Closing Checkout is not an error: no toast, nothing changes.
    await page.evaluate(() => ((window as any).__checkoutMode = 'dismiss'));
    await page.getByRole('button', { name: `Pay ₹${FEE}` }).click();
    await expect.poll(() => page.getByRole('button', { name: `Pay ₹${FEE}` }).isEnabled()).toBe(true);
    expect(
      await page
        .getByRole('region', { name: /Notifications/ })
        .locator('[data-sonner-toast]')
        .count(),
    ).toBe(0);
  });

  test("pays through Checkout with the server's order: 'Account created!', the account is active and revenue counts it", async ({
    api,
    rzp,
    admin: { token: adminToken },
    visitor: { page },
  }) => {
    await page.evaluate(() => ((window as any).__checkoutMode = 'pay'));
    await page.getByRole('button', { name: `Pay ₹${FEE}` }).click();
    await toastText(page, 'Account created!');
    await page.getByText('Please check your email to verify your account.').waitFor();
    await page.waitForURL('**/login');

    const opened = (await page.evaluate(() => (window as any).__checkoutOpened)) as {
      key: string;
      order_id: string;
      amount: number;
      currency: string;
      prefill: { email: string };
    };
    expect(opened).toMatchObject({ key: rzp.keyId, amount: FEE * 100, currency: 'INR', prefill: { email } });
    expect(rzp.orders.get(opened.order_id)).toMatchObject({ amount: FEE * 100, status: 'paid' });
    expect(rzp.requests.every((r) => r.authorized)).toBe(true);
    // Paid; only the e-mail verification is left.
    expect(await accountStatus(api)).toBe('email_not_verified');
    expect((await api('GET', '/api/admin/stats', adminToken)).json.revenue_rupees).toBe(FEE);
  });
});
