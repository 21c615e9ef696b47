import { describe, expect } from 'vitest';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { mp4Faststart, webm } from '../fixtures/videos';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { uploadThroughDialog, waitForServiceWorker } from './feed-actions';

const email = uniqueEmail('offline');
const viewerEmail = uniqueEmail('viewer');
const onlineTitle = 'Posted while online';
const offlineTitle = 'Posted while offline';

// The file follows one member's device through going offline and back, and a second device then
// reads what it sent: that device's browser context is made once per file.
const test = pwaTest().extend('omar', { scope: 'file' }, async ({ server, browser }, { onCleanup }) => {
  await signUpVerified(server, 'Omar Offline', email);
  await signUpVerified(server, 'Vera Viewer', viewerEmail);
  const context = await browser.newContext();
  onCleanup(() => context.close());
  return { context, page: await context.newPage() };
});

describe.skipIf(!hasChromium)('the same member offline', () => {
  test('likes, comments and uploads offline, keeps them pending over an offline reload, and sends each once', async ({ server, omar: { page, context } }) => {
    await logInThroughUi(page, server, email);
    await waitForServiceWorker(page);
    await uploadThroughDialog(page, onlineTitle, await mp4Faststart());
    const card = page.getByRole('article', { name: onlineTitle });
    await card.waitFor();
    await expect.poll(() => card.getByText('Pending').count(), { timeout: 30_000 }).toBe(0);

    // Processed on the server: the card streams HLS, and playing it keeps the small MP4 (never the
    // original, never the streamed segments) for offline replays.
    await expect.poll(() => card.getByText(/^Processing/).count(), { timeout: 60_000 }).toBe(0);
    await card.getByRole('button', { name: `Play ${onlineTitle}` }).click();
    await expect.poll(() => card.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(0);
    await card.getByRole('button', { name: `Pause ${onlineTitle}` }).click();
    const kept = () => page.evaluate(async () => (await (await caches.open('vidi-media')).keys()).map((r) => new URL(r.url).pathname));
    await expect.poll(kept, { timeout: 30_000 }).toEqual([expect.stringMatching(/^\/media\/.+\/small\.mp4$/)]);

    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline" }).waitFor();

    await card.getByRole('button', { name: /^Like/ }).click();
    await expect.poll(() => card.getByRole('button', { name: /^Like/ }).getAttribute('aria-label')).toBe('Like, 1 like');
    await card.getByRole('button', { name: /^Comments/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Comments' });
    await dialog.getByRole('textbox', { name: 'Add a comment' }).fill('Written on a plane');
    await dialog.getByRole('textbox', { name: 'Add a comment' }).press('Enter');
    await dialog.getByText('Written on a plane').waitFor();
    await dialog.getByText('Pending').waitFor();
    await page.keyboard.press('Escape');
    await uploadThroughDialog(page, offlineTitle, await webm());
    await page.getByRole('article', { name: offlineTitle }).waitFor();
    await page.getByText(/changes? waiting to sync/).waitFor();
    await saveScreenshot(page, 'offline-pending');

    // Reload with no network: the shell comes from the service worker, the data from IndexedDB.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome, Omar Offline!' }).waitFor();
    const again = page.getByRole('article', { name: onlineTitle });
    expect(await again.getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await again.getByRole('button', { name: /^Like/ }).getAttribute('aria-label')).toBe('Like, 1 like');
    expect(await again.getByRole('button', { name: /^Comments/ }).getAttribute('aria-label')).toBe('Comments, 1 comment');
    await page.getByRole('article', { name: offlineTitle }).getByText('Pending').waitFor();
    await page.getByText('3 changes waiting to sync').waitFor();
    // The watched video plays with no network, from the media cache (Range requests answered by the worker).
    await again.getByRole('button', { name: `Play ${onlineTitle}` }).click();
    await expect.poll(() => again.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(0);
    await again.getByRole('button', { name: `Pause ${onlineTitle}` }).click();

    await context.setOffline(false);
    await expect.poll(() => page.getByText(/waiting to sync/).count(), { timeout: 60_000 }).toBe(0);
    await expect.poll(() => page.getByRole('article', { name: offlineTitle }).getByText('Pending').count(), { timeout: 60_000 }).toBe(0);
  });

  test('shows a second device exactly one like, one comment and both videos', async ({ server, context: other }) => {
    const viewer = await other.newPage();
    await logInThroughUi(viewer, server, viewerEmail);
    const card = viewer.getByRole('article', { name: onlineTitle });
    await card.waitFor();
    expect(await card.getByRole('button', { name: /^Like/ }).getAttribute('aria-label')).toBe('Like, 1 like');
    expect(await card.getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe('false');
    expect(await card.getByRole('button', { name: /^Comments/ }).getAttribute('aria-label')).toBe('Comments, 1 comment');
    await viewer.getByRole('article', { name: offlineTitle }).waitFor();
    expect(await viewer.getByRole('article').count()).toBe(2);
    await card.getByRole('button', { name: /^Comments/ }).click();
    const dialog = viewer.getByRole('dialog', { name: 'Comments' });
    await dialog.getByText('Written on a plane').waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(1);
  });

  test('rolls back a change the server refuses (a comment on a video deleted meanwhile) and says why', async ({ server, context: other, omar: { page } }) => {
    const viewer = await other.newPage();
    await logInThroughUi(viewer, server, viewerEmail);
    const card = viewer.getByRole('article', { name: offlineTitle });
    await card.waitFor();

    await other.setOffline(true);
    await card.getByRole('button', { name: /^Comments/ }).click();
    const dialog = viewer.getByRole('dialog', { name: 'Comments' });
    await dialog.getByRole('textbox', { name: 'Add a comment' }).fill('Too late');
    await dialog.getByRole('textbox', { name: 'Add a comment' }).press('Enter');
    await dialog.getByText('Too late').waitFor();
    await viewer.keyboard.press('Escape');

    // Meanwhile the owner deletes the video.
    const own = page.getByRole('article', { name: offlineTitle });
    page.once('dialog', (d) => void d.accept());
    await own.getByRole('button', { name: `Delete video ${offlineTitle}` }).click();
    await page.getByText('Video Deleted', { exact: true }).waitFor();
    await expect.poll(() => page.getByText(/waiting to sync/).count(), { timeout: 30_000 }).toBe(0);

    await other.setOffline(false);
    await viewer.getByText('Comment Failed', { exact: true }).waitFor({ timeout: 60_000 });
    await expect.poll(() => viewer.getByRole('article', { name: offlineTitle }).count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => viewer.getByText(/waiting to sync/).count(), { timeout: 30_000 }).toBe(0);
    await saveScreenshot(viewer, 'offline-rejected-comment');
  });
});
