import { describe, expect } from 'vitest';
import type { Browser, Route } from 'playwright-core';
import type { ServerProcess } from '../helpers/server-process';
import { hasChromium } from '../helpers/browser';
import { signedInPage } from '../helpers/signed-in-page';
import { pwaTest } from './fixtures';
import { seedVideo } from './installed-app-steps';
import { PASSWORD, signUpVerified, uniqueEmail } from './member-session';
import { toastText } from './toasts';

const test = pwaTest();

/** The code /home fetches once its first cards are drawn (client/lib/after-first-screen.ts). */
const DEFERRED = /\/assets\/(toaster-entry|AdSlot|comments-dialog-entry)-[\w-]+\.js$/;
const TITLE = 'Sunrise over the ghats';
const WEAK_SIGNAL_TITLE = 'Monsoon on the platform';

/**
 * A creator's video titled `title`, and a new member signed in on a first visit: a browser context
 * whose service worker never runs (blocked), so nothing is kept on the device.
 */
async function firstVisitTo(server: ServerProcess, browser: Browser, title: string) {
  const creator = uniqueEmail('creator');
  await signUpVerified(server, 'Cora Creator', creator);
  await seedVideo(server, creator, title);
  const email = uniqueEmail('first-visit');
  await signUpVerified(server, 'Omar Offline', email);
  return signedInPage(browser, server.url, email, PASSWORD, { serviceWorkers: 'block' });
}

// docs/pwa.md, "Offline": a first visit's service worker has not kept anything yet. A member whose
// network goes in the second after the first card keeps the screen; what could not come is
// fetched again when the network is back, and what was said meanwhile is shown then.
describe.skipIf(!hasChromium)('a first visit that loses the network before the app was kept', () => {
  test('keeps the feed without the toaster, the ad and the comments code, and brings them when back online', async ({ server, browser }) => {
    const { page, context, close } = await firstVisitTo(server, browser, TITLE);
    try {
      const failed = new Set<string>();
      const loaded = new Set<string>();
      const chunkOf = (url: string) => DEFERRED.exec(new URL(url).pathname)?.[1];
      page.on('requestfailed', (r) => void (chunkOf(r.url()) && failed.add(chunkOf(r.url()) ?? '')));
      page.on('response', (r) => void (r.ok() && chunkOf(r.url()) && loaded.add(chunkOf(r.url()) ?? '')));
      // The code deferred past the first screen is asked for, and the network goes while it is on its
      // way: the device knows it is offline when those requests fail.
      const inFlight: Route[] = [];
      await page.route(DEFERRED, (route) => void inFlight.push(route));
      await page.goto(`${server.url}/home`);
      const card = page.getByRole('article', { name: TITLE });
      await card.waitFor();
      // The page stays the same page: nothing reloads it (offline, a reload could only fail).
      let reloads = 0;
      page.on('framenavigated', (frame) => void (frame === page.mainFrame() && reloads++));
      const expected = ['AdSlot', 'comments-dialog-entry', 'toaster-entry'];
      await expect.poll(() => inFlight.map((r) => chunkOf(r.request().url())).sort(), { timeout: 15_000 }).toEqual(expected);
      await context.setOffline(true);
      for (const route of inFlight) await route.abort('internetdisconnected');
      await page.unroute(DEFERRED);
      await expect.poll(() => [...failed].sort()).toEqual(expected);

      // The screen stays: the card, its ad's place; the comments cannot open, and nothing takes the screen's place.
      // React reports the error its boundary caught: the dialog's code did not come.
      const refused = page.waitForEvent('console', (m) => m.type() === 'error' && /comments-dialog-entry/.test(m.text()));
      await card.getByRole('button', { name: /^Comments/ }).click();
      await refused;
      await expect.poll(() => page.getByRole('heading', { name: 'Something went wrong' }).count()).toBe(0);
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
      await page.getByRole('complementary', { name: 'Advertisement' }).first().waitFor({ state: 'attached' });
      expect(await page.getByRole('dialog', { name: 'Comments' }).count()).toBe(0);
      expect(loaded.size).toBe(0);
      expect(reloads).toBe(0);

      // Back online: the toaster comes with what was said while it could not, the ad's code too,
      // and the comments open.
      await context.setOffline(false);
      await toastText(page, 'Could not open the comments');
      await toastText(page, "You're offline. Try again when you are back online.");
      await expect.poll(() => [...loaded].sort()).toEqual(['AdSlot', 'toaster-entry']);
      await card.getByRole('button', { name: /^Comments/ }).click();
      await page.getByRole('dialog', { name: 'Comments' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Something went wrong' }).count()).toBe(0);
      expect(reloads).toBe(0);
    } finally {
      await close();
    }
  });
  test('a chunk that did not come on a weak signal reloads nothing; one a new deploy took away reloads the page once', async ({ server, browser }) => {
    const { page, close } = await firstVisitTo(server, browser, WEAK_SIGNAL_TITLE);
    try {
      const COMMENTS_CODE = /\/assets\/comments-dialog-entry-[\w-]+\.js$/;
      // The device says it is online, but the comments dialog's code does not come; the server has it.
      await page.route(COMMENTS_CODE, (route) => (route.request().method() === 'HEAD' ? route.continue() : route.abort('internetdisconnected')));
      await page.goto(`${server.url}/home`);
      const card = page.getByRole('article', { name: WEAK_SIGNAL_TITLE });
      await card.waitFor();
      let reloads = 0;
      page.on('framenavigated', (frame) => void (frame === page.mainFrame() && reloads++));
      const asked = page.waitForResponse((r) => r.request().method() === 'HEAD' && COMMENTS_CODE.test(r.url()));
      await card.getByRole('button', { name: /^Comments/ }).click();
      expect((await asked).status()).toBe(200);
      await toastText(page, 'Could not open the comments');
      await toastText(page, 'Please try again.');
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
      expect(reloads).toBe(0);

      // A new deploy took that chunk away: the server answers 404, and the page reloads, once.
      await page.unroute(COMMENTS_CODE);
      await page.route(COMMENTS_CODE, (route) => route.fulfill({ status: 404, body: 'Not found.' }));
      const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
      await card.getByRole('button', { name: /^Comments/ }).click();
      await reloaded;
      await card.waitFor();
      // Missing again after the reload (a broken deploy): the page has reloaded for it once already,
      // so it neither asks again nor reloads.
      let heads = 0;
      page.on('request', (r) => void (r.method() === 'HEAD' && heads++));
      await card.getByRole('button', { name: /^Comments/ }).click();
      await toastText(page, 'Could not open the comments');
      await page.waitForTimeout(500);
      expect(reloads).toBe(1);
      expect(heads).toBe(0);
    } finally {
      await close();
    }
  });
});
