import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser';
import { PROJECT_ROOT, type ServerProcess } from '../helpers/server-process';
import { logInThroughUi, PASSWORD, resetLinkFor, signUpVerified, startPwaServer, uniqueEmail } from './member-session';
import { toastText } from './toasts';

const run = promisify(execFile);
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

describe.skipIf(!hasChromium)('the ad slot', () => {
  let server: ServerProcess;
  let browser: Browser;
  let adminToken = '';
  const memberEmail = uniqueEmail('ads');

  const saveAds = async (ads: { client_id: string; slot_id: string }) => {
    const res = await fetch(`${server.url}/api/admin/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entry_fee: { enabled: false, amount_rupees: 0 }, payment: { provider: 'razorpay', razorpay_key_id: '' }, ads }),
    });
    expect(res.status).toBe(200);
  };

  /** A context where the ad service's script is a local stand-in (the test machine has no internet). */
  const adContext = async (): Promise<{ context: BrowserContext; scriptLoads: string[] }> => {
    const context = await browser.newContext();
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
  };

  beforeAll(async () => {
    server = await startPwaServer();
    const adminEmail = uniqueEmail('ads-admin');
    await run(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', '--email', adminEmail, '--password', PASSWORD, '--name', 'Ads Admin'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'error' },
    });
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: adminEmail, password: PASSWORD }),
    });
    adminToken = ((await login.json()) as { access_token: string }).access_token;
    await signUpVerified(server, 'Ada Ads', memberEmail);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('reserves the space quietly when no ad ids are configured', async () => {
    const { context, scriptLoads } = await adContext();
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
    await context.close();
  });

  it('renders the ad tag on login, sign-up and home when configured and online, and not offline', async () => {
    await saveAds({ client_id: AD_CLIENT, slot_id: AD_SLOT });
    const { context, scriptLoads } = await adContext();
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
    await context.close();
  });

  // Issue 26, medium 4: the reset link's token must not reach the ad service's script (first-party
  // code that reads the address) nor stay in the address bar; the reset itself still works.
  it('runs no ad code on the reset link, whose token leaves the address before the app starts', async () => {
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
    const { context, scriptLoads } = await adContext();
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
    await context.close();
  });
});
