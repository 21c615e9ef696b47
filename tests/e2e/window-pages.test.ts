import { describe, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser';
import { PROJECT_ROOT } from '../helpers/server-process';
import { nodeEntryArgs } from '../../scripts/lib/node-entry';
import { pwaTest } from './fixtures';
import { waitForServiceWorker } from './feed-actions';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { FIRST_WINDOW_PAGE } from '#client/sync/window-fill';

const run = promisify(execFile);
const VIDEOS = 40;

const test = pwaTest(
  {},
  {
    seed: async (dataDir) => {
      await run(process.execPath, [...nodeEntryArgs('seed'), '--users', '3', '--videos', String(VIDEOS), '--likes', '10', '--comments', '5', '--views', '20'], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
      });
    },
  },
);

/** The videos the page's local database holds (IndexedDB 'vidi'). */
const localVideos = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((ok) => {
        const open = indexedDB.open('vidi');
        open.onsuccess = () => {
          const req = open.result.transaction('videos').objectStore('videos').count();
          req.onsuccess = () => ok(req.result);
        };
      }),
  );

// docs/decisions/0028-the-window-in-pages.md: the first cards come before the rest of the window,
// and a reload in the middle continues the window instead of starting it over.
describe.skipIf(!hasChromium)('the feed window in pages', () => {
  test('draws the first cards while the next page is held, and a reload mid-window completes it', async ({ server, browser }) => {
    const email = uniqueEmail('pages');
    await signUpVerified(server, 'Paula Pages', email);
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      const pulls: Array<{ cursor: string | null; window_page?: number; window_after?: string }> = [];
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/sync/pull', async (route) => {
        const n = pulls.push(route.request().postDataJSON() as (typeof pulls)[number]);
        if (n === 2) await held;
        // The page that asked may be gone (the reload below): its request then cannot go on.
        await route.continue().catch(() => undefined);
      });

      await logInThroughUi(page, server, email);
      await page.locator('article[data-index="0"]').waitFor();
      await expect.poll(() => pulls.length).toBe(2);
      expect(pulls[0]).toMatchObject({ cursor: null, window_page: FIRST_WINDOW_PAGE });
      expect(await localVideos(page)).toBe(FIRST_WINDOW_PAGE);

      // Closed mid-window: the held page never arrives; the reloaded page continues from the stored fill.
      await page.reload();
      release();
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
      await expect.poll(() => localVideos(page), { timeout: 20_000 }).toBe(VIDEOS);
      const resumed = pulls[2];
      expect(resumed?.cursor).toEqual(expect.any(String));
      expect(resumed?.window_after).toBe(pulls[1]?.window_after);
      expect(pulls.some((p, i) => i > 0 && p.cursor === null)).toBe(false);
      await page.locator('article[data-index="0"]').waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);

  // What the first screen does not need (client/lib/after-first-screen.ts) shares a slow phone's
  // network and main thread with the first card no more: it is asked for once that card is drawn.
  // zod waits for the member's first input when a service worker is in control: the pulls are
  // validated and written in the pull worker (docs/decisions/0032-pulls-applied-in-a-worker.md),
  // and only a tap's mutation needs it here.
  test('asks for the comments, notifications list, share, ad and toaster code only after the first card is drawn, and for the validators at the first input', async ({
    server,
    browser,
  }) => {
    const email = uniqueEmail('later');
    await signUpVerified(server, 'Lena Later', email);
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const first = await context.newPage();
      await logInThroughUi(first, server, email);
      await first.locator('article[data-index="0"]').waitFor();
      // The service worker controls the next tab: the validators' chunk is precached, so it waits
      // for the member's first input (without one it loads once the first screen is drawn).
      await waitForServiceWorker(first);
      await first.close();
      // Another visit in a new tab: the first card's arrival is noted as the page runs.
      await context.addInitScript(NOTE_FIRST_CARD);
      const page = await context.newPage();
      await page.goto(`${server.url}/home`);
      await page.locator('article[data-index="0"]').waitFor();
      expect(page.workers().map((w) => w.url())).toContainEqual(expect.stringMatching(/\/assets\/pull\.worker-[\w-]+\.js$/));
      expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
      const askedAt = (name: string) =>
        page.evaluate((n) => performance.getEntriesByType('resource').find((e) => e.name.includes(`/assets/${n}`))?.startTime ?? null, name);
      const later = ['comments-dialog-entry-', 'NotificationPanel-', 'share-link-', 'AdSlot-', 'toaster-entry-'];
      for (const name of later) await expect.poll(() => askedAt(name), { message: name, timeout: 15_000 }).not.toBeNull();
      const drawnAt = (await page.evaluate('window.__firstCardAt')) as number;
      expect(drawnAt).toBeGreaterThan(0);
      for (const name of later) expect(await askedAt(name), name).toBeGreaterThan(drawnAt);
      // The owner's Edit dialog comes at its first tap only.
      expect(await askedAt('EditVideoDialog-')).toBeNull();
      // Nothing the member did needed zod yet; a key press is the first input.
      expect(await askedAt('validators-')).toBeNull();
      const pressedAt = (await page.evaluate('performance.now()')) as number;
      await page.keyboard.press('Shift');
      await expect.poll(() => askedAt('validators-'), { timeout: 15_000 }).toBeGreaterThan(pressedAt);
    } finally {
      await context.close();
    }
  }, 120_000);
});

/** Runs before the page's scripts: notes when the first card enters the page. */
const NOTE_FIRST_CARD = `(() => {
  new MutationObserver((_records, observer) => {
    if (!document.querySelector('article[data-index="0"]')) return;
    window.__firstCardAt = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
})();`;
