import { describe, expect } from 'vitest';
import type { Route } from 'playwright-core';
import { hasChromium } from '../helpers/browser';
import { readMailSink } from '../helpers/mail-sink';
import { pwaTest } from './fixtures';
import { logInThroughUi, PASSWORD, signUpVerified, uniqueEmail } from './member-session';
import { waitForServiceWorker } from './feed-actions';

const test = pwaTest();

const path = (url: string) => new URL(url).pathname;

/** Runs in the page: rows in the local database's profile store (IndexedDB 'vidi'). */
declare function localProfileCount(): Promise<number>;
const LOCAL_PROFILE_COUNT = `window.localProfileCount = () => new Promise((ok) => {
  const open = indexedDB.open('vidi');
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains('profile')) return ok(0);
    const req = db.transaction('profile').objectStore('profile').count();
    req.onsuccess = () => ok(req.result);
  };
});`;

describe.skipIf(!hasChromium)('route guards', () => {
  const email = uniqueEmail('guard');

  test.beforeAll(async ({ server }) => {
    await signUpVerified(server, 'Guard Member', email);
  });

  test('sends a visitor from every member route to /login, and leaves public routes alone', async ({ server, context }) => {
    const page = await context.newPage();
    for (const route of ['/home', '/rewards', '/profile']) {
      await page.goto(server.url + route);
      await page.waitForURL('**/login');
      expect(path(page.url())).toBe('/login');
      await page.getByText('Welcome back! Sign in to your account').waitFor();
    }
    for (const route of ['/', '/login', '/signup']) {
      await page.goto(server.url + route);
      await page.getByRole('main').waitFor();
      expect(path(page.url())).toBe(route);
    }
  });

  test('shows a loading screen while the session is being restored, then the member route', async ({ server, context }) => {
    const page = await context.newPage();
    await logInThroughUi(page, server, email);
    let release: (() => void) | undefined;
    const held = new Promise<void>((ok) => (release = ok));
    await page.route('**/api/auth/refresh', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.goto(server.url + '/rewards');
    await page.getByRole('status').filter({ hasText: 'Loading your session' }).waitFor();
    expect(path(page.url())).toBe('/rewards');
    release?.();
    await page.getByRole('heading', { level: 1, name: 'Rewards' }).waitFor();
    expect(path(page.url())).toBe('/rewards');
  });

  test('sends a signed-in member from /login and /signup to /home, keeps the session over a reload, and signs out to /login', async ({ server, context }) => {
    const page = await context.newPage();
    await logInThroughUi(page, server, email);
    for (const route of ['/login', '/signup']) {
      await page.goto(server.url + route);
      await page.waitForURL('**/home');
      expect(path(page.url())).toBe('/home');
    }
    // A reload restores the session from the refresh cookie alone (the access token lives in memory).
    await page.goto(server.url + '/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    expect(path(page.url())).toBe('/profile');

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await page.waitForURL('**/login');
    await page.goto(server.url + '/home');
    await page.waitForURL('**/login');
    expect(path(page.url())).toBe('/login');
  });

  test('sends the member to /login when the session was revoked elsewhere, keeping the queued change for the next sign-in', async ({ server, context }) => {
    const revokedEmail = uniqueEmail('revoked');
    await signUpVerified(server, 'Rita Revoked', revokedEmail);
    await context.addInitScript(LOCAL_PROFILE_COUNT);
    const page = await context.newPage();
    await logInThroughUi(page, server, revokedEmail);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).waitFor();
    // The first sync has brought the profile into the local database.
    await expect.poll(() => page.evaluate(() => localProfileCount()), { timeout: 30_000 }).toBe(1);
    // The offline reload below is answered by the service worker: it must control the page first.
    await waitForServiceWorker(page);

    // A rename made offline waits in the outbox, also over an offline reload.
    await context.setOffline(true);
    await page.getByLabel('Full Name').fill('Rita Renamed');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile Updated').waitFor();
    await page.reload();
    await page.getByText(/will sync when you are online/).waitFor();
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Rita Renamed');

    // Meanwhile the session is ended elsewhere (its refresh family revoked).
    const [cookie] = (await context.cookies(`${server.url}/api/auth/refresh`)).filter((c) => c.name === 'vidi_refresh');
    expect(cookie).toBeDefined();
    const revoke = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: cookie!.value }),
    });
    expect(revoke.status).toBe(204);

    await context.setOffline(false);
    await page.waitForURL('**/login', { timeout: 60_000 });

    // Signing in again sends the rename queued before.
    await logInThroughUi(page, server, revokedEmail);
    await page.getByRole('heading', { level: 1, name: 'Welcome, Rita Renamed!' }).waitFor();
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: revokedEmail, password: PASSWORD }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    await expect
      .poll(
        async () => ((await (await fetch(`${server.url}/api/profile`, { headers: { authorization: `Bearer ${token}` } })).json()) as { name: string }).name,
        { timeout: 30_000 },
      )
      .toBe('Rita Renamed');
  });

  test('refreshes the access token on the 30 s tick near its expiry, never while the tab is hidden', async ({ server, context }) => {
    // The page's clock is fake (it still runs), so 14 minutes can pass at once.
    await context.clock.install();
    const page = await context.newPage();
    // Counted when answered, so the next jump in time starts from the new token's expiry.
    let refreshes = 0;
    page.on('requestfinished', (r) => {
      if (r.url().endsWith('/api/auth/refresh')) refreshes++;
    });
    await logInThroughUi(page, server, email);
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((s) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);

    // Far from expiry (15 min tokens): ticks do nothing.
    await page.clock.fastForward('05:00');
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    expect(refreshes).toBe(0);

    // Hidden: no refresh even within 3 ticks of expiry.
    await setVisibility('hidden');
    await page.clock.fastForward('09:00');
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(null))));
    expect(refreshes).toBe(0);

    // Visible again: refreshed at once, then quiet until the new token nears its end.
    await setVisibility('visible');
    await expect.poll(() => refreshes, { timeout: 10_000 }).toBe(1);
    await page.clock.fastForward('05:00');
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    expect(refreshes).toBe(1);
    await page.clock.fastForward('09:00');
    await expect.poll(() => refreshes, { timeout: 10_000 }).toBe(2);
  });

  test('refuses a wrong password with the spec toast and stays on /login', async ({ server, context }) => {
    const page = await context.newPage();
    await page.goto(server.url + '/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Sign in Failed').waitFor();
    expect(path(page.url())).toBe('/login');
  });

  test('refuses an unverified address and sends a new verification link on request', async ({ server, context }) => {
    const fresh = uniqueEmail('unverified');
    const res = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Una Verified', email: fresh, password: PASSWORD }),
    });
    expect(res.status).toBe(201);
    expect(readMailSink(server.dataDir).filter((m) => m.to.includes(fresh))).toHaveLength(1);
    const page = await context.newPage();
    await page.goto(server.url + '/login');
    await page.getByLabel('Email').fill(fresh);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Sign in Failed', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await page.getByText('Verification email sent', { exact: true }).waitFor();
    expect(readMailSink(server.dataDir).filter((m) => m.to.includes(fresh))).toHaveLength(2);
    expect(path(page.url())).toBe('/login');
  });

  test('switches cleanly between two members on one device', async ({ server, context }) => {
    const second = uniqueEmail('second');
    await signUpVerified(server, 'Sid Second', second);
    const page = await context.newPage();
    await logInThroughUi(page, server, email);
    await page.getByRole('heading', { level: 1, name: 'Welcome, Guard Member!' }).waitFor();
    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await page.waitForURL('**/login');

    await logInThroughUi(page, server, second);
    await page.getByRole('heading', { level: 1, name: 'Welcome, Sid Second!' }).waitFor();
    await page.getByRole('link', { name: 'Profile' }).click();
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(second);
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Sid Second');
    // And after a reload the restored session is the second member's.
    await page.reload();
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(second);
  });

  test('follows a sign-out and a sign-in made in another tab', async ({ server, context }) => {
    const first = await context.newPage();
    await logInThroughUi(first, server, email);
    const second = await context.newPage();
    await second.goto(server.url + '/profile');
    await second.getByRole('button', { name: 'Save Changes' }).waitFor();

    await first.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await first.waitForURL('**/login');
    await second.waitForURL('**/login');

    await logInThroughUi(first, server, email);
    await second.waitForURL('**/home');
    await second.getByRole('heading', { level: 1, name: 'Welcome, Guard Member!' }).waitFor();
  });
});
