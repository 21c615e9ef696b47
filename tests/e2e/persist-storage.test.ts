import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { pwaTest } from './fixtures';
import { seedVideo } from './installed-app-steps';

const test = pwaTest();

// docs/pwa.md, "Persistent storage": asked once per device, when something is first kept offline.
describe.skipIf(!hasChromium)('persistent storage', () => {
  const creatorEmail = uniqueEmail('creator');

  test.beforeAll(async ({ server }) => {
    await signUpVerified(server, 'Cora Creator', creatorEmail);
  });

  const persistCalls = (page: Page) => page.evaluate(() => (window as unknown as { persistCalls: number }).persistCalls);
  /** The mutations the page's local database still holds (IndexedDB 'vidi', the outbox). */
  const outboxSize = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<number>((ok, fail) => {
          const open = indexedDB.open('vidi');
          open.onerror = () => fail(open.error);
          open.onsuccess = () => {
            const req = open.result.transaction('outbox').objectStore('outbox').count();
            req.onsuccess = () => {
              ok(req.result);
              open.result.close();
            };
          };
        }),
    );

  test('is not asked for at sign-in, is asked for at the first offline like, and not again', async ({ server, context }) => {
    const email = uniqueEmail('keeper');
    await signUpVerified(server, 'Kim Keeper', email);
    const first = 'Kept for the flight';
    const second = 'Kept as well';
    await seedVideo(server, creatorEmail, first);
    await seedVideo(server, creatorEmail, second);
    // Counts the page's calls (the browser's own answer still comes back).
    await context.addInitScript(() => {
      const w = window as unknown as { persistCalls: number };
      w.persistCalls = 0;
      const storage = navigator.storage;
      const real = storage.persist.bind(storage);
      storage.persist = () => {
        w.persistCalls += 1;
        return real();
      };
    });
    const page = await context.newPage();
    await logInThroughUi(page, server, email);
    await page.getByRole('article', { name: first }).waitFor();
    expect(await persistCalls(page)).toBe(0);

    // Online, a like is sent at once: nothing is kept for later.
    await page.getByRole('article', { name: second }).getByRole('button', { name: /^Like/ }).click();
    await expect.poll(() => page.getByRole('article', { name: second }).getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe('true');
    // Sent and confirmed: the queue is empty (the banner's text alone could read "none" before it showed the like).
    await expect.poll(() => outboxSize(page), { timeout: 30_000 }).toBe(0);
    expect(await persistCalls(page)).toBe(0);

    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline" }).waitFor();
    const card = page.getByRole('article', { name: first });
    await card.getByRole('button', { name: /^Like/ }).click();
    await card.getByText('Pending').waitFor();
    await expect.poll(() => persistCalls(page)).toBe(1);

    await page.getByRole('article', { name: second }).getByRole('button', { name: /^Like/ }).click();
    await expect.poll(() => page.getByRole('article', { name: second }).getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe('false');
    await page.getByText('2 changes waiting to sync').waitFor();
    expect(await persistCalls(page)).toBe(1);

    // Once per device: a reload (a new page, the count starts over) does not ask again either.
    await context.setOffline(false);
    await page.reload();
    await page.getByRole('article', { name: first }).waitFor();
    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline" }).waitFor();
    await page.getByRole('article', { name: first }).getByRole('button', { name: /^Like/ }).click();
    await page.getByRole('article', { name: first }).getByText('Pending').waitFor();
    expect(await persistCalls(page)).toBe(0);
  });
});
