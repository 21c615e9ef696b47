import { describe, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { PROJECT_ROOT } from '../helpers/server-process';
import { nodeEntryArgs } from '../../scripts/lib/node-entry';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { closeToast } from './toasts';

const run = promisify(execFile);
/** More than the first pull's window (300), so the end of the feed comes from GET /api/videos pages. */
const VIDEOS = 310;

const isPlaying = (page: Page, index: number) => page.locator(`article[data-index="${index}"] video`).evaluate((v: HTMLVideoElement) => !v.paused);

// The seed fills a fresh data folder before the server opens it.
const seed = async (dataDir: string) => {
  await run(process.execPath, [...nodeEntryArgs('seed'), '--users', '6', '--videos', String(VIDEOS), '--likes', '50', '--comments', '20'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
  });
};

// The tests scroll one member's phone-sized page through the seeded feed: made once per file.
const test = pwaTest({}, { seed }).extend('scroller', { scope: 'file' }, async ({ server, browser }, { onCleanup }) => {
  const email = uniqueEmail('scroller');
  await signUpVerified(server, 'Sam Scroller', email);
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  onCleanup(() => context.close());
  const page = await context.newPage();
  await logInThroughUi(page, server, email);
  return { context, page };
});

describe.skipIf(!hasChromium)('the feed: infinite scroll, preloading, one video at a time', () => {
  // Seeding 310 videos and starting on them takes longer than a test's usual time.
  test.beforeAll(async ({ scroller }) => void scroller, 180_000);

  test('preloads only the cards near the viewport', async ({ scroller: { page } }) => {
    const first = page.locator('article[data-index="0"] video');
    await first.waitFor();
    // The cards load video once the first poster is on screen (video-bytes-gate.ts).
    await expect.poll(() => first.getAttribute('preload')).toBe('metadata');
    expect(await first.getAttribute('poster')).toMatch(/^\/media\//);
    // The next card gets its first bytes ahead of time, the two after it only their poster, farther ones nothing.
    expect(await page.locator('article[data-index="1"] video').getAttribute('preload')).toBe('metadata');
    expect(await page.locator('article[data-index="2"] video').getAttribute('preload')).toBe('none');
    expect(await page.locator('article[data-index="2"] video').getAttribute('poster')).toMatch(/^\/media\//);
    expect(await page.locator('article[data-index="8"] video').getAttribute('preload')).toBe('none');
    expect(await page.locator('article[data-index="8"] video').getAttribute('poster')).toBeNull();
    await saveScreenshot(page, 'feed-phone');
  });

  test("a toast stands above the phone's bottom bar, not over its links", async ({ scroller: { page } }) => {
    // Any toast will do: the link copied, or the share refused where this browser has no clipboard.
    await page
      .locator('article[data-index="0"]')
      .getByRole('button', { name: /^Share/ })
      .click();
    const toast = page.getByRole('region', { name: /Notifications/ }).locator('[data-sonner-toast]');
    await toast.waitFor();
    const navTop = await page.getByRole('navigation', { name: 'Bottom' }).evaluate((el) => el.getBoundingClientRect().top);
    // It slides up into place: polled until it has arrived.
    await expect.poll(() => toast.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(navTop);
    await closeToast(page);
  });

  test('plays one video at a time and pauses a video scrolled out of view', async ({ scroller: { page } }) => {
    await page
      .locator('article[data-index="0"]')
      .getByRole('button', { name: /^Play / })
      .click();
    await expect.poll(() => isPlaying(page, 0)).toBe(true);
    await page.locator('article[data-index="1"]').scrollIntoViewIfNeeded();
    await expect.poll(() => isPlaying(page, 0)).toBe(false);
    await page
      .locator('article[data-index="1"]')
      .getByRole('button', { name: /^Play / })
      .click();
    await expect.poll(() => isPlaying(page, 1)).toBe(true);
    await page.locator('article[data-index="2"]').scrollIntoViewIfNeeded();
    await page
      .locator('article[data-index="2"]')
      .getByRole('button', { name: /^Play / })
      .click();
    await expect.poll(() => isPlaying(page, 2)).toBe(true);
    expect(await isPlaying(page, 1)).toBe(false);
    expect(await isPlaying(page, 0)).toBe(false);
  });

  test('scrolls through every video: the local copy in steps, then older pages from the server', async ({ scroller: { page } }) => {
    const pageRequests: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/videos\?limit=\d+&cursor=/.test(r.url())) pageRequests.push(r.url());
    });
    const cards = page.getByRole('article');
    let count = await cards.count();
    expect(count).toBe(10);
    for (let step = 0; step < 60 && count < VIDEOS; step++) {
      await cards.last().scrollIntoViewIfNeeded();
      await expect.poll(() => cards.count(), { timeout: 30_000 }).toBeGreaterThan(count);
      count = await cards.count();
    }
    expect(count).toBe(VIDEOS);
    expect(pageRequests.length).toBeGreaterThan(0);
    // Every card is a different video.
    const ids = await page.locator('article[data-index]').evaluateAll((els) => els.map((e) => e.id));
    expect(new Set(ids).size).toBe(VIDEOS);
  });

  test('opens a shared link (/home#video-ID) at its card, even one beyond the first cards', async ({ server, scroller: { page, context } }) => {
    const id = await page.locator('article[data-index="42"]').getAttribute('id');
    expect(id).toMatch(/^video-/);
    const shared = await context.newPage();
    await shared.goto(`${server.url}/home#${id}`);
    const card = shared.locator(`article#${id}`);
    await card.waitFor();
    await expect
      .poll(() =>
        card.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.top < window.innerHeight && r.bottom > 0;
        }),
      )
      .toBe(true);
    await shared.close();
  });
});
