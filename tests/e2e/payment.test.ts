import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { lastMailTo } from '../helpers/mail-sink';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { pwaTest } from './fixtures';
import { PASSWORD, uniqueEmail } from './member-session';
import { toastText } from './toasts';

const FEE = 99;

async function signUpInBrowser(page: Page, server: ServerProcess, name: string, address: string) {
  await page.goto(`${server.url}/signup`);
  await page.getByText(`Entry Fee: ₹${FEE}`).waitFor();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page.waitForURL('**/payment');
}

// The tests follow one visitor's page from sign-up through payment: made once per file.
const test = pwaTest().extend('visitor', { scope: 'file' }, async ({ browser }, { onCleanup }) => {
  const context = await browser.newContext();
  onCleanup(() => context.close());
  return { page: await context.newPage() };
});

describe.skipIf(!hasChromium)('sign-up with the entry fee in sandbox mode', () => {
  const email = uniqueEmail('payer');
  const laterEmail = uniqueEmail('later');

  test.beforeAll(async ({ api, admin }) => {
    const saved = await api('PUT', '/api/admin/settings', admin.token, {
      entry_fee: { enabled: true, amount_rupees: FEE },
      payment: { provider: 'sandbox', razorpay_key_id: '' },
      ads: { client_id: '', slot_id: '' },
    });
    expect(saved.status).toBe(200);
  });

  test('sign-up goes to /payment with the order summary, the test-mode label and the perks; no password is kept', async ({
    server,
    api,
    visitor: { page },
  }) => {
    await signUpInBrowser(page, server, 'Priya Payer', email);
    const summary = page.getByRole('region', { name: 'Order Summary' });
    await summary.getByText(`₹${FEE}`).waitFor();
    await summary.getByText('Priya Payer').waitFor();
    await summary.getByText(email).waitFor();
    await page.getByText('Secured by Sandbox (test mode)').waitFor();
    await page.getByText(/this is a sandbox payment\. No real money is charged\./).waitFor();
    for (const perk of ['Upload unlimited short videos', 'Connect with millions of creators', 'Like, comment and share videos'])
      await page.getByText(perk).waitFor();
    await page.getByRole('link', { name: 'Back to Sign Up' }).waitFor();
    const stored = await page.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries(localStorage))));
    expect(stored).toContain(email);
    expect(stored).not.toContain(PASSWORD);
    // Unpaid: the account cannot sign in yet.
    const login = await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD });
    expect(login.status).toBe(403);
    expect(login.json.error.code).toBe('payment_required');
    await saveScreenshot(page, 'payment-sandbox');
  });

  test("pays: 'Account created!', then /login; after the mailed link the member signs in", async ({
    server,
    api,
    admin: { token: adminToken },
    visitor: { page },
  }) => {
    await page.getByRole('button', { name: `Pay ₹${FEE}` }).click();
    await toastText(page, 'Account created!');
    await page.getByText('Please check your email to verify your account.').waitFor();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('vidi.pendingPayment'))).toBeNull();

    const link = lastMailTo(server.dataDir, email).links.find((l) => l.includes('/api/auth/verify?token='));
    const { pathname, search } = new URL(link!);
    // The link's redirect carries PUBLIC_URL, which the test server leaves at its default: follow it by hand.
    const verified = await fetch(server.url + pathname + search, { redirect: 'manual' });
    expect(verified.headers.get('location')).toMatch(/\/login\?verified=1$/);
    await page.goto(`${server.url}/login?verified=1`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/home');
    // Test-mode money is not revenue.
    expect((await api('GET', '/api/admin/stats', adminToken)).json.revenue_rupees).toBe(0);
  });

  test("an unpaid account that signs in is sent back to /payment; with the provider gone it is 'Payment not configured' and stays unpaid", async ({
    server,
    api,
    visitor: { page },
  }) => {
    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await page.waitForURL('**/login');
    await signUpInBrowser(page, server, 'Later Payer', laterEmail);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(laterEmail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/payment');
    await page.getByRole('region', { name: 'Order Summary' }).getByText('Later Payer').waitFor();

    // The configuration disappears behind the admin's back (the admin API would refuse this).
    const { db, close } = openServerDatabase(server);
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify({ provider: 'razorpay', razorpay_key_id: '', razorpay_key_secret: '', razorpay_webhook_secret: '' }) })
      .where('key', '=', 'payment')
      .execute();
    await close();
    await page.getByRole('button', { name: `Pay ₹${FEE}` }).click();
    await toastText(page, 'Payment not configured');
    const login = await api('POST', '/api/auth/login', undefined, { email: laterEmail, password: PASSWORD });
    expect(login.json.error.code).toBe('payment_required');

    await page.getByRole('link', { name: 'Back to Sign Up' }).click();
    await page.waitForURL('**/signup');
  });
});
