import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { logInThroughUi, signUpVerified, startPwaServer, uniqueEmail } from './member-session';
import { seedVideo } from './installed-app-steps';

// docs/pwa.md, "Persistent storage": asked once per device, when something is first kept offline.
describe.skipIf(!hasChromium)('persistent storage', () => {
  let server: ServerProcess;
  let browser: Browser;
  const creatorEmail = uniqueEmail('creator');

  beforeAll(async () => {
    server = await startPwaServer();
    browser = await launchChromium();
    await signUpVerified(server, 'Cora Creator', creatorEmail);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const persistCalls = (page: Page) => page.evaluate(() => (window as unknown as { persistCalls: number }).persistCalls);

  it('is not asked for at sign-in, is asked for at the first offline like, and not again', async () => {
    const email = uniqueEmail('keeper');
    await signUpVerified(server, 'Kim Keeper', email);
    const first = 'Kept for the flight';
    const second = 'Kept as well';
    await seedVideo(server, creatorEmail, first);
    await seedVideo(server, creatorEmail, second);
    const context = await browser.newContext();
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
    await expect.poll(() => page.getByText(/waiting to sync/).count(), { timeout: 30_000 }).toBe(0);
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
    await context.close();
  });
});
