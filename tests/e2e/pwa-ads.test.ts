import { describe, expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser';
import { pwaTest } from './fixtures';
import { logInThroughUi, resetLinkFor, signUpVerified, uniqueEmail } from './member-session';
import { toastText } from './toasts';

const AD_CLIENT = 'ca-pub-1234567890';
const AD_SLOT = '9876543210';

/** Console errors and uncaught exceptions of a page, for the "no console errors" rule of the ad slot. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

const test = pwaTest()
  .extend('saveAds', { scope: 'file' }, async ({ api, admin }) => async (ads: { client_id: string; slot_id: string }) => {
    const res = await api('PUT', '/api/admin/settings', admin.token, {
      entry_fee: { enabled: false, amount_rupees: 0 },
      payment: { provider: 'razorpay', razorpay_key_id: '' },
      ads,
    });
    expect(res.status).toBe(200);
  })
  /** The test's context, where the ad service's script is a local stand-in (the test machine has no internet). */
  .extend('adContext', async ({ context }): Promise<{ context: BrowserContext; scriptLoads: string[] }> => {
    const scriptLoads: string[] = [];
    await context.route('https://pagead2.googlesyndication.com/**', async (route) => {
      scriptLoads.push(route.request().url());
      await route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' },
        body: 'window.__adsLoaded = true;',
      });
    });
    return { context, scriptLoads };
  });

describe.skipIf(!hasChromium)('the ad slot', () => {
  const memberEmail = uniqueEmail('ads');

  test.beforeAll(async ({ server }) => {
    await signUpVerified(server, 'Ada Ads', memberEmail);
  });

  test('reserves the space quietly when no ad ids are configured', async ({ server, adContext: { context, scriptLoads } }) => {
    const page = await context.newPage();
    const errors = collectErrors(page);
    for (const route of ['/login', '/signup']) {
      await page.goto(server.url + route);
      const slot = page.getByRole('complementary', { name: 'Advertisement' });
      await slot.waitFor();
      expect(await slot.locator('ins').count()).toBe(0);
      expect((await slot.boundingBox())!.height).toBeGreaterThanOrEqual(90);
    }
    expect(scriptLoads).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('renders the ad tag on login, sign-up and home when configured and online, and not offline', async ({
    server,
    saveAds,
    adContext: { context, scriptLoads },
  }) => {
    await saveAds({ client_id: AD_CLIENT, slot_id: AD_SLOT });
    const page = await context.newPage();
    const errors = collectErrors(page);
    for (const route of ['/login', '/signup']) {
      await page.goto(server.url + route);
      const ad = page.getByRole('complementary', { name: 'Advertisement' }).locator('ins.adsbygoogle');
      await ad.waitFor({ state: 'attached' });
      expect(await ad.getAttribute('data-ad-client')).toBe(AD_CLIENT);
      expect(await ad.getAttribute('data-ad-slot')).toBe(AD_SLOT);
      await expect.poll(() => page.evaluate(() => (window as { adsbygoogle?: unknown[] }).adsbygoogle?.length ?? 0)).toBe(1);
    }
    expect(scriptLoads.length).toBeGreaterThan(0);
    expect(scriptLoads[0]).toBe(`https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${AD_CLIENT}`);

    await logInThroughUi(page, server, memberEmail);
    const homeSlot = page.getByRole('complementary', { name: 'Advertisement' });
    await homeSlot.locator('ins.adsbygoogle').waitFor({ state: 'attached' });

    expect(errors).toEqual([]);

    // Offline the tag goes and the space stays. (The sync engine's failed requests are the browser's own
    // network log lines; none of them may come from the ad service.)
    await context.setOffline(true);
    await expect.poll(() => homeSlot.locator('ins').count()).toBe(0);
    expect((await homeSlot.boundingBox())!.height).toBeGreaterThanOrEqual(90);
    expect(errors.filter((e) => /googlesyndication|adsbygoogle|doubleclick/.test(e))).toEqual([]);
  });

  // Issue 26, medium 4: the reset link's token must not reach the ad service's script (first-party
  // code that reads the address) nor stay in the address bar; the reset itself still works.
  test('runs no ad code on the reset link, whose token leaves the address before the app starts', async ({
    server,
    saveAds,
    adContext: { context, scriptLoads },
  }) => {
    await saveAds({ client_id: AD_CLIENT, slot_id: AD_SLOT });
    const email = uniqueEmail('ads-reset');
    await signUpVerified(server, 'Rita Reset', email);
    const forgot = await fetch(`${server.url}/api/auth/password/forgot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(forgot.status).toBeLessThan(300);
    const link = new URL(await resetLinkFor(server, email));
    const token = link.searchParams.get('token')!;
    const page = await context.newPage();
    const errors = collectErrors(page);
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url)) elsewhere.push(r.url());
    });

    await page.goto(server.url + link.pathname + link.search);
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    expect(await page.evaluate(() => location.href)).toBe(`${server.url}/reset-password`);
    // The public settings (with the ad ids) are in: an ad slot would have rendered by now.
    await page.waitForFunction(() => localStorage.length > 0 && Object.keys(localStorage).some((k) => /settings/i.test(k)));
    expect(await page.getByRole('complementary', { name: 'Advertisement' }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.outerHTML.includes('adsbygoogle'))).toBe(false);

    // Back to Sign In, where the ad script runs: the token does not come along.
    await page.getByRole('link', { name: 'Back to Sign In' }).click();
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(await page.evaluate((t) => JSON.stringify(sessionStorage).includes(t), token)).toBe(false);

    // The link again; a reload of the cleaned address still has the form (the token is kept in this tab only).
    await page.goto(server.url + link.pathname + link.search);
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await page.reload();
    await page.getByLabel('New Password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('Confirm Password', { exact: true }).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await toastText(page, 'Password updated');
    await page.waitForURL('**/login');
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a brand new passphrase' }),
    });
    expect(login.status).toBe(200);

    // /login does show its ad; none of it, nor any request to another origin, saw the token.
    await page.getByRole('complementary', { name: 'Advertisement' }).locator('ins.adsbygoogle').waitFor({ state: 'attached' });
    expect(scriptLoads.length).toBeGreaterThan(0);
    expect(elsewhere.filter((u) => u.includes(token))).toEqual([]);
    expect(await page.evaluate((t) => JSON.stringify(sessionStorage).includes(t), token)).toBe(false);
    expect(errors).toEqual([]);
  });
});
