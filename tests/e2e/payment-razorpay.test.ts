import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium, saveScreenshot } from '../helpers/browser';
import { PROJECT_ROOT, startServer, type ServerProcess } from '../helpers/server-process';
import { startRazorpayStandIn, type RazorpayStandIn } from '../helpers/razorpay-stand-in';
import { PASSWORD, uniqueEmail } from './member-session';
import { toastText, closeToast } from './toasts';

const run = promisify(execFile);
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

describe.skipIf(!hasChromium)('entry fee through Razorpay Checkout', () => {
  let rzp: RazorpayStandIn;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let adminToken = '';
  const email = uniqueEmail('rzp');

  const api = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as any };
  };
  const accountStatus = async () => (await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD })).json?.error?.code;

  beforeAll(async () => {
    rzp = await startRazorpayStandIn();
    server = await startServer({ env: { RAZORPAY_API_BASE: rzp.url } });
    const adminEmail = uniqueEmail('admin');
    await run(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', '--email', adminEmail, '--password', PASSWORD], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'error' },
    });
    adminToken = (await api('POST', '/api/auth/login', undefined, { email: adminEmail, password: PASSWORD })).json.access_token;
    const saved = await api('PUT', '/api/admin/settings', adminToken, {
      entry_fee: { enabled: true, amount_rupees: FEE },
      payment: { provider: 'razorpay', razorpay_key_id: rzp.keyId, razorpay_key_secret: rzp.keySecret },
      ads: { client_id: '', slot_id: '' },
    });
    expect(saved.status).toBe(200);

    browser = await launchChromium();
    context = await browser.newContext();
    await context.route('https://checkout.razorpay.com/v1/checkout.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: CHECKOUT_STAND_IN }),
    );
    await context.exposeFunction('rzpStandInPay', (orderId: string) => rzp.pay(orderId));
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await rzp?.close();
  });

  it('shows the Razorpay order summary after sign-up', async () => {
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

  it("a failed or forged payment shows 'Payment failed' and the account stays unpaid", async () => {
    await page.evaluate(() => ((window as any).__checkoutMode = 'fail'));
    await page.getByRole('button', { name: `Pay ₹${FEE}` }).click();
    await toastText(page, 'Payment failed');
    await page.getByText('Something went wrong. Please try again.').waitFor();
    await closeToast(page);

    await page.evaluate(() => ((window as any).__checkoutMode = 'forge'));
    await page.getByRole('button', { name: `Pay ₹${FEE}` }).click();
    await toastText(page, 'Payment failed');
    await closeToast(page);
    expect(await accountStatus()).toBe('payment_required');

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

  it("pays through Checkout with the server's order: 'Account created!', the account is active and revenue counts it", async () => {
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
    expect(await accountStatus()).toBe('email_not_verified');
    expect((await api('GET', '/api/admin/stats', adminToken)).json.revenue_rupees).toBe(FEE);
  });
});
