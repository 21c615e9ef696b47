import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { waitForServiceWorker } from './feed-actions';
import { apiLogin, bellLabel, pushAs, seedVideo, serverNotifications } from './notifications-steps';

const ownerEmail = uniqueEmail('owner');
const fanEmail = uniqueEmail('fan');

// The tests follow one owner's bell through the file (read, reloaded, tapped), so the owner, the
// video and the phone-sized page are made once per file.
const test = pwaTest().extend('owner', { scope: 'file' }, async ({ server, browser }, { onCleanup }) => {
  await signUpVerified(server, 'Nina Owner', ownerEmail);
  await signUpVerified(server, 'Farid Fan', fanEmail);
  const ownerId = (await apiLogin(server, ownerEmail)).userId;
  const videoId = await seedVideo(server, ownerId, 'Monsoon on the roof');
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  onCleanup(() => context.close());
  // The app icon's badge has nothing to look at in a headless browser: the page's calls are recorded instead.
  await context.addInitScript(() => {
    const calls: number[] = [];
    Object.assign(window, { badgeCalls: calls });
    Object.assign(navigator, { setAppBadge: async (n: number) => void calls.push(n), clearAppBadge: async () => void calls.push(0) });
  });
  return { ownerId, videoId, context, page: await context.newPage() };
});

describe.skipIf(!hasChromium)('the bell: a member hears about a like and a comment', () => {
  const badgeCalls = (page: Page) => page.evaluate(() => (window as unknown as { badgeCalls: number[] }).badgeCalls);
  const list = (page: Page) => page.getByRole('dialog', { name: 'Notifications' }).getByRole('list', { name: 'Notifications' });

  test('shows the unread count, lists them newest first, and marks them read on the device and on the server', async ({ server, owner }) => {
    const { page, videoId, ownerId } = owner;
    await logInThroughUi(page, server, ownerEmail);
    await waitForServiceWorker(page);
    expect(await bellLabel(page)).toBe('Notifications');
    await page.getByRole('button', { name: 'Notifications' }).click();
    await page.getByRole('dialog', { name: 'Notifications' }).getByText('No notifications yet').waitFor();
    await page.keyboard.press('Escape');

    const fan = await apiLogin(server, fanEmail);
    await pushAs(server, fan.token, [{ name: 'like', args: { videoId } }]);
    await pushAs(server, fan.token, [{ name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'What a sound!' } }]);

    // The open page hears of them through its live stream: no reload.
    await expect.poll(() => bellLabel(page), { timeout: 30_000 }).toBe('Notifications, 2 unread');
    expect(await page.locator('.bell-count').textContent()).toBe('2');
    expect(await badgeCalls(page)).toContain(2);
    await page.getByRole('button', { name: 'Notifications, 2 unread' }).click();
    const items = list(page).getByRole('listitem');
    await expect
      .poll(() => items.allTextContents())
      .toEqual([expect.stringMatching(/^New: Farid Fan commented on your videoWhat a sound!/), expect.stringMatching(/^New: Farid Fan liked your video/)]);
    await saveScreenshot(page, 'notifications-sheet-360');
    await page.keyboard.press('Escape');
    // Opening the list read them: the bell and the app icon say so at once, the server once the outbox is sent.
    await expect.poll(() => bellLabel(page)).toBe('Notifications');
    expect((await badgeCalls(page)).at(-1)).toBe(0);
    await expect
      .poll(() => serverNotifications(server, ownerId), { timeout: 30_000 })
      .toEqual([
        { kind: expect.any(String), read_at: expect.any(Number) },
        { kind: expect.any(String), read_at: expect.any(Number) },
      ]);
    expect((await serverNotifications(server, ownerId)).map((n) => n.kind).sort()).toEqual(['comment', 'likes']);
  });

  test('keeps the list, read, over a reload and an offline reload', async ({ owner: { page, context } }) => {
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    expect(await bellLabel(page)).toBe('Notifications');
    await page.getByRole('button', { name: 'Notifications' }).click();
    const items = list(page).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.allTextContents()).toEqual([
      expect.stringMatching(/^Farid Fan commented on your video/),
      expect.stringMatching(/^Farid Fan liked your video/),
    ]);
    await page.keyboard.press('Escape');
    await context.setOffline(false);
  });

  test('goes to the video when one is tapped, and a new like on it counts again', async ({ server, owner: { page, videoId } }) => {
    const other = await apiLogin(server, fanEmail);
    await pushAs(server, other.token, [{ name: 'unlike', args: { videoId } }]);
    await pushAs(server, other.token, [{ name: 'like', args: { videoId } }]);
    await expect.poll(() => bellLabel(page), { timeout: 30_000 }).toBe('Notifications, 1 unread');

    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await list(page)
      .getByRole('button', { name: /liked your video/ })
      .click();
    await page.waitForURL(`**/home#video-${videoId}`);
    expect(await page.getByRole('dialog', { name: 'Notifications' }).count()).toBe(0);
    await page.locator(`[id="video-${videoId}"]`).waitFor();
    expect(await bellLabel(page)).toBe('Notifications');
  });

  test('opens the list from the keyboard and gives focus back to the bell', async ({ owner: { page } }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    await dialog.waitFor();
    await saveScreenshot(page, 'notifications-panel-1280');
    await page.keyboard.press('Escape');
    await expect.poll(() => bell.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
