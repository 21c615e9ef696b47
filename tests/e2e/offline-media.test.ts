import { describe, expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { mp4Faststart } from '../fixtures/videos';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { toastText } from './toasts';
import { uploadAndWaitSent, waitForServiceWorker } from './feed-actions';

// Offline copies and media preferences (docs/pwa.md, "Service worker"; client/lib/offline-media.ts,
// client/lib/media-preferences.ts, the profile's "Video playback and storage"). Each test signs up
// its own member in its own browser context.

const MEDIA_CACHE = 'vidi-media';

async function openProfile(page: Page, server: ServerProcess): Promise<void> {
  await page.goto(`${server.url}/profile`);
  await page.getByRole('heading', { level: 2, name: 'Video playback and storage' }).waitFor();
}

/** The figure shown next to "Saved videos" once the storage estimate is in. */
function savedVideosFigure(page: Page) {
  return page.locator('dt', { hasText: 'Saved videos' }).locator('xpath=following-sibling::dd[1]');
}

const cachedUrls = (page: Page) => page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname), MEDIA_CACHE);

interface LocalVideo {
  title: string;
  video_url: string;
  media_status?: string;
  /** Absent in rows written before the server sent processed media. */
  mp4_url?: string | null;
  hls_url?: string | null;
}

/** The video's URLs as the device's local database holds them (the FeedItem the player gets). */
function localVideo(page: Page, title: string): Promise<LocalVideo | undefined> {
  return page.evaluate(
    (wanted) =>
      new Promise<LocalVideo | undefined>((ok, fail) => {
        const open = indexedDB.open('vidi');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('server_videos').objectStore('server_videos').getAll();
          all.onerror = () => fail(all.error);
          all.onsuccess = () => ok((all.result as LocalVideo[]).find((v) => v.title === wanted));
        };
      }),
    title,
  );
}

/** Uploads through the dialog and waits until the server's media worker made the renditions. */
async function uploadReady(page: Page, title: string): Promise<LocalVideo> {
  await uploadAndWaitSent(page, title, await mp4Faststart());
  await expect.poll(async () => (await localVideo(page, title))?.media_status, { timeout: 90_000, interval: 500 }).toBe('ready');
  const video = await localVideo(page, title);
  expect(video?.mp4_url).toBeTruthy();
  return video!;
}

// A phone-sized fresh device per test (its own browser context).
const test = pwaTest().extend('phone', async ({ browser }, { onCleanup }): Promise<BrowserContext> => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  onCleanup(() => context.close());
  return context;
});

/** A new member, signed in on the test's phone. */
async function signedInMember(server: ServerProcess, context: BrowserContext, tag: string, name: string): Promise<{ page: Page; context: BrowserContext }> {
  const email = uniqueEmail(tag);
  await signUpVerified(server, name, email);
  const page = await context.newPage();
  await logInThroughUi(page, server, email);
  return { page, context };
}

describe.skipIf(!hasChromium)('offline copies and media preferences', () => {
  test('shows "Video playback and storage" on the profile: two switches and the offline storage figures', async ({ server, phone }) => {
    const { page } = await signedInMember(server, phone, 'media-profile', 'Pia Profile');
    await openProfile(page, server);

    const dataSaver = page.getByRole('switch', { name: 'Data saver' });
    expect(await dataSaver.isChecked()).toBe(false);
    expect(await dataSaver.getAttribute('aria-describedby')).toBeTruthy();
    await page.getByText('Plays videos at 360p and does not load ahead.').waitFor();
    expect(await page.getByRole('switch', { name: 'Download new videos for offline (Wi-Fi only)' }).isChecked()).toBe(false);

    const storage = page.getByRole('group', { name: 'Offline storage' });
    await storage.getByText('Used on this device').waitFor();
    expect(await storage.getByText(/^\d[\d.,]* MB( of .+)?$/).count()).toBeGreaterThan(0);
    expect(await savedVideosFigure(page).textContent()).toBe('0 videos');
    await storage.getByText(/^(On|Off): the browser/).waitFor();
    // Nothing to clear yet.
    expect(await storage.getByRole('button', { name: 'Clear offline videos' }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'profile-media-settings');
  });

  test('keeps data saver and download ahead over a reload (set from the keyboard)', async ({ server, phone }) => {
    const { page } = await signedInMember(server, phone, 'media-prefs', 'Dara Saver');
    await openProfile(page, server);

    const dataSaver = page.getByRole('switch', { name: 'Data saver' });
    await dataSaver.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => dataSaver.isChecked()).toBe(true);
    await page.getByRole('switch', { name: 'Download new videos for offline (Wi-Fi only)' }).click();

    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Video playback and storage' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Data saver' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Download new videos for offline (Wi-Fi only)' }).isChecked()).toBe(true);
    const stored = await page.evaluate(() => localStorage.getItem('vidi.mediaPreferences'));
    expect(JSON.parse(stored ?? 'null')).toEqual({ dataSaver: true, downloadAhead: true });

    await page.getByRole('switch', { name: 'Data saver' }).click();
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Video playback and storage' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Data saver' }).isChecked()).toBe(false);
  });

  test('saves the small MP4 from the card once it is ready, plays it offline (Range answered by the worker), never serves HLS from the cache, and "Clear offline videos" empties it', async ({
    server,
    phone,
  }) => {
    const { page, context } = await signedInMember(server, phone, 'media-offline', 'Otto Offline');
    await waitForServiceWorker(page);
    const title = 'Saved for the train';
    const video = await uploadReady(page, title);
    const mp4 = video.mp4_url!;
    expect(mp4).toMatch(/^\/media\/.+\.mp4$/);

    const card = page.getByRole('article', { name: title });
    await card.getByRole('button', { name: 'Save for offline' }).click();
    await toastText(page, 'Saved for offline');
    // Only the small MP4: not the original upload, not the HLS playlist or its segments.
    expect(await cachedUrls(page)).toEqual([mp4]);
    expect(
      await page.evaluate(async ({ name, mp4 }) => (await (await caches.open(name)).match(mp4))?.headers.get('X-Vidi-Offline-Copy'), {
        name: MEDIA_CACHE,
        mp4,
      }),
    ).toBe('1');

    // A playlist planted in the cache is still never answered from it: streamed media goes to the network.
    const hlsUrl = video.hls_url ?? mp4.replace(/[^/]+$/, 'master.m3u8');
    await page.evaluate(async ({ name, hlsUrl }) => (await caches.open(name)).put(hlsUrl, new Response('#EXTM3U\n')), { name: MEDIA_CACHE, hlsUrl });

    await context.setOffline(true);
    const answers = await page.evaluate(
      async ({ mp4, hlsUrl }) => {
        const ranged = await fetch(mp4, { headers: { Range: 'bytes=0-99' } });
        const body = await ranged.arrayBuffer();
        // no-store: the player fetched this playlist online and the browser's HTTP cache may hold it.
        const hls = await fetch(hlsUrl, { cache: 'no-store' }).then(
          (r) => `answered ${r.status}`,
          () => 'network error',
        );
        return { status: ranged.status, contentRange: ranged.headers.get('content-range'), length: body.byteLength, hls };
      },
      { mp4, hlsUrl },
    );
    expect(answers.status).toBe(206);
    expect(answers.contentRange).toMatch(/^bytes 0-99\/\d+$/);
    expect(answers.length).toBe(100);
    expect(answers.hls).toBe('network error');

    // A player given the saved URL (offlineUrlFor's answer) plays with no network at all.
    const played = await page.evaluate(async (src) => {
      const v = document.createElement('video');
      v.muted = true;
      v.src = src;
      document.body.append(v);
      await v.play();
      const deadline = Date.now() + 20_000;
      while (v.currentTime === 0 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 100));
      const t = v.currentTime;
      v.remove();
      return t;
    }, mp4);
    expect(played).toBeGreaterThan(0);

    await context.setOffline(false);
    await page.evaluate(async ({ name, hlsUrl }) => (await caches.open(name)).delete(hlsUrl), { name: MEDIA_CACHE, hlsUrl });
    await openProfile(page, server);
    await expect.poll(() => savedVideosFigure(page).textContent(), { timeout: 10_000 }).toBe('1 video');
    await page.getByRole('button', { name: 'Clear offline videos' }).click();
    await toastText(page, 'Offline videos cleared');
    expect(await cachedUrls(page)).toEqual([]);
    await expect.poll(() => savedVideosFigure(page).textContent()).toBe('0 videos');
  });

  test('downloads the newest ready videos ahead when "Download new videos for offline" is on', async ({ server, phone }) => {
    const { page } = await signedInMember(server, phone, 'media-ahead', 'Ada Ahead');
    await waitForServiceWorker(page);
    const video = await uploadReady(page, 'Fetched while on Wi-Fi');
    // Off by default: opening the feed stores nothing.
    await page.goto(`${server.url}/home`);
    await page.getByRole('article', { name: 'Fetched while on Wi-Fi' }).waitFor();
    expect(await cachedUrls(page)).toEqual([]);

    await openProfile(page, server);
    await page.getByRole('switch', { name: 'Download new videos for offline (Wi-Fi only)' }).click();
    await page.goto(`${server.url}/home`);
    // The feed holds other members' ready videos too (this file's earlier ones): the newest five are kept.
    await expect.poll(() => cachedUrls(page), { timeout: 30_000 }).toContain(video.mp4_url);
    for (const url of await cachedUrls(page)) expect(url).toMatch(/\/small\.mp4$/);
  });
});
