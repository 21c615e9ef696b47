import { describe, expect } from 'vitest';
import type { Route } from 'playwright-core';
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

// docs/pwa.md, "Offline": a first visit's service worker has not kept anything yet. A member whose
// network goes in the second after the first card keeps the screen; what could not come is
// fetched again when the network is back, and what was said meanwhile is shown then.
describe.skipIf(!hasChromium)('a first visit that loses the network before the app was kept', () => {
  test('keeps the feed without the toaster, the ad and the comments code, and brings them when back online', async ({ server, browser }) => {
    const creator = uniqueEmail('creator');
    await signUpVerified(server, 'Cora Creator', creator);
    await seedVideo(server, creator, TITLE);
    const email = uniqueEmail('first-visit');
    await signUpVerified(server, 'Omar Offline', email);
    const { page, context, close } = await signedInPage(browser, server.url, email, PASSWORD, { serviceWorkers: 'block' });
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
});
