import { describe, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { insertVideo } from '#tests/helpers/videos';
import { hasChromium } from '../helpers/browser';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { axeViolations } from './axe';
import { waitForServiceWorker } from './feed-actions';
import { pwaTest } from './fixtures';
import { serverState } from './installed-app-steps';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';

// The full-screen viewer (docs/pwa.md, "Viewer") on a phone: swipes between HLS videos the server's
// pipeline would have made (one 360p rendition of 2 s segments, small.mp4 and poster.jpg, by ffmpeg).

const run = promisify(execFile);
const VIDEOS = 10;
const CREATOR = 'creator-viewer';
const mediaKey = (i: number) => `${CREATOR}/viewer-video-${i}/job1`;
const title = (i: number) => `Viewer clip ${i}`;

async function makeMedia(dir: string): Promise<void> {
  const source = ['-f', 'lavfi', '-i', 'testsrc=size=360x640:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '6'];
  const h264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-b:v', '400k'];
  mkdirSync(join(dir, 'v360'), { recursive: true });
  await run('ffmpeg', [
    ...['-loglevel', 'error', '-y', ...source, ...h264, '-g', '60', '-keyint_min', '60', '-sc_threshold', '0'],
    ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4'],
    ...['-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(dir, 'v360', 'seg_%03d.m4s'), join(dir, 'v360', 'index.m3u8')],
  ]);
  const variant = '#EXT-X-STREAM-INF:BANDWIDTH=464000,RESOLUTION=360x640,CODECS="avc1.64001e,mp4a.40.2"\nv360/index.m3u8';
  writeFileSync(join(dir, 'master.m3u8'), ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS', variant, ''].join('\n'));
  await run('ffmpeg', ['-loglevel', 'error', '-y', ...source, ...h264, '-movflags', '+faststart', join(dir, 'small.mp4')]);
  await run('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=360x640', '-frames:v', '1', join(dir, 'poster.jpg')]);
}

/** Ready videos of one creator, newest first in the feed as `Viewer clip i`. */
async function seedVideos(server: ServerProcess, media: string): Promise<void> {
  const { db, close } = openServerDatabase(server);
  try {
    const base = Date.now() - 60_000;
    const profile = {
      email: 'creator-viewer@seed.test',
      is_admin: 0,
      is_active: 1,
      account_status: 'active',
      email_verified_at: base,
      created_at: base,
      updated_at: base,
    };
    await db
      .insertInto('profiles')
      .values({ id: CREATOR, name: 'Vic Creator', handle: 'vic_creator', ...profile })
      .execute();
    for (let i = 0; i < VIDEOS; i++) {
      cpSync(media, join(server.dataDir, 'media', mediaKey(i)), { recursive: true });
      await insertVideo({ db }, CREATOR, {
        id: `viewer-video-${i}`,
        title: title(i),
        description: `Number ${i} of the #viewer set`,
        file_key: `${CREATOR}/original-${i}.mov`,
        duration_ms: 6000,
        poster_key: `${mediaKey(i)}/poster.jpg`,
        created_at: base - i * 1000,
        media_progress: 100,
        media_key: mediaKey(i),
      });
    }
  } finally {
    await close();
  }
}

// No media worker: the seeded rows are ready already.
const test = pwaTest({ MEDIA_WORKER: 'off' });
const email = uniqueEmail('viewer');

/** A phone (touch, 390 x 844) signed in on the feed. */
async function phone(server: ServerProcess, browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await logInThroughUi(page, server, email);
  return page;
}

const slide = (page: Page, i: number) => page.locator(`article.viewer-slide[data-index="${i}"]`);

/**
 * Seconds `video` plays within 15 s, counted from now and up to `seconds`: each step forward of its
 * currentTime (a loop's jump back to the start is not one), so a video met again part way counts too.
 */
function playedFor(video: Locator, seconds: number): Promise<number> {
  return video.evaluate(
    (v: HTMLVideoElement, want: number) =>
      new Promise<number>((done) => {
        let last = v.currentTime;
        let played = 0;
        const stop = () => {
          clearInterval(tick);
          clearTimeout(limit);
          done(played);
        };
        const tick = setInterval(() => {
          const t = v.currentTime;
          if (t > last && t - last < 1) played += t - last;
          last = t;
          if (played >= want) stop();
        }, 50);
        const limit = setTimeout(stop, 15_000);
      }),
    seconds,
  );
}

/** The slide in view plays (its time moves on) and paints frames, and no other video on the page plays. */
async function expectPlaying(page: Page, i: number): Promise<void> {
  await slide(page, i).locator('video').waitFor();
  expect(await slide(page, i).getAttribute('data-active')).toBe('true');
  const video = slide(page, i).locator('video');
  expect(await playedFor(video, 0.3)).toBeGreaterThanOrEqual(0.3);
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
  // A frame is painted: requestVideoFrameCallback fires only for a frame presented on screen.
  expect(await video.evaluate((v: HTMLVideoElement) => new Promise<boolean>((ok) => v.requestVideoFrameCallback(() => ok(true))))).toBe(true);
  const playing = await page.evaluate(() => [...document.querySelectorAll('video')].filter((v) => !v.paused).map((v) => v.getAttribute('aria-label')));
  expect(playing).toEqual([title(i)]);
}

/**
 * A finger's swipe over the viewer, up (to the next video) or down (to the previous one): touch events
 * through DevTools, scrolled and snapped by the browser.
 */
async function swipe(page: Page, direction: 'up' | 'down'): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y = 0) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: 195, y }] });
  // Past half the screen, so the snap goes on to the next video however slow the finger (a loaded machine).
  const [from, to, step] = direction === 'up' ? [780, 100, -20] : [100, 780, 20];
  await touch('touchStart', from);
  for (let y = from + step; direction === 'up' ? y >= to : y <= to; y += step) {
    await touch('touchMove', y);
    await page.waitForTimeout(16);
  }
  await touch('touchEnd');
  await cdp.detach();
}

describe.skipIf(!hasChromium)('the full-screen viewer', () => {
  test.beforeAll(async ({ server }) => {
    const media = mkdtempSync(join(tmpdir(), 'vidi-viewer-media-'));
    try {
      await makeMedia(media);
      await signUpVerified(server, 'Vera Viewer', email);
      await seedVideos(server, media);
    } finally {
      rmSync(media, { recursive: true, force: true });
    }
  }, 180_000);

  test('opens from a feed card, swipes through five videos and goes back by key and swipe, likes with a double tap, comments, and Back returns to the card', async ({
    server,
    browser,
  }) => {
    const page = await phone(server, browser);
    try {
      const card = page.getByRole('article', { name: title(1) });
      await card.scrollIntoViewIfNeeded();
      await card.getByRole('link', { name: 'Watch', exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/watch/viewer-video-1' && u.searchParams.get('list') === 'feed');
      await expectPlaying(page, 1);
      await page.getByText(`Video 2 of ${VIDEOS}: ${title(1)} by Vic Creator`).waitFor({ state: 'attached' });

      // The keyboard moves one video, and so does a notch of the mouse wheel (one video a gesture).
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => slide(page, 2).getAttribute('data-active')).toBe('true');
      await expectPlaying(page, 2);
      await page.mouse.move(195, 400);
      await page.mouse.wheel(0, 120);
      await expect.poll(() => slide(page, 3).getAttribute('data-active')).toBe('true');
      await expectPlaying(page, 3);

      for (let i = 4; i <= 8; i++) {
        await swipe(page, 'up');
        await expect.poll(() => slide(page, i).getAttribute('data-active')).toBe('true');
        await expectPlaying(page, i);
        // The address follows the video in view.
        await page.waitForURL((u) => u.pathname === `/watch/viewer-video-${i}`);
      }
      // The next video has its source on (its first segment), the one after only its poster; the one
      // before keeps its source too, so going back starts as quickly as going forward.
      expect(await slide(page, 9).locator('video').getAttribute('preload')).toBe('metadata');
      expect(await slide(page, 7).locator('video').getAttribute('preload')).toBe('metadata');

      // Back by a key, then by a finger's downward swipe: each previous video plays again.
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => slide(page, 7).getAttribute('data-active')).toBe('true');
      await expectPlaying(page, 7);
      await swipe(page, 'down');
      await expect.poll(() => slide(page, 6).getAttribute('data-active')).toBe('true');
      await expectPlaying(page, 6);
      await page.waitForURL((u) => u.pathname === '/watch/viewer-video-6');
      // A tap (its pause lands 300 ms later, once the video has left) and at once on to the next:
      // back again, the tapped video plays.
      await page.touchscreen.tap(195, 400);
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => slide(page, 7).getAttribute('data-active')).toBe('true');
      await expectPlaying(page, 7);
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => slide(page, 6).getAttribute('data-active')).toBe('true');
      await expectPlaying(page, 6);

      // Double tap: liked at once, and on the server.
      const like = slide(page, 6).getByRole('button', { name: /^Like/ });
      expect(await like.getAttribute('aria-pressed')).toBe('false');
      await page.touchscreen.tap(195, 400);
      await page.touchscreen.tap(195, 400);
      await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
      expect(await like.getAttribute('aria-label')).toBe('Like, 1 like');
      await expect.poll(async () => (await serverState(server, email, 'viewer-video-6')).likes, { timeout: 15_000 }).toBe(1);
      // Still playing: the two taps were one double tap, not two pauses.
      await expect
        .poll(() =>
          slide(page, 6)
            .locator('video')
            .evaluate((v: HTMLVideoElement) => v.paused),
        )
        .toBe(false);

      // The comments sheet over the video: post one; axe finds nothing with it open.
      await slide(page, 6)
        .getByRole('button', { name: /^Comments/ })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Comments' });
      await dialog.getByRole('textbox', { name: 'Add a comment' }).fill('Watched it full screen');
      await dialog.getByRole('textbox', { name: 'Add a comment' }).press('Enter');
      await dialog.getByText('Watched it full screen').waitFor();
      await expect.poll(async () => (await serverState(server, email, 'viewer-video-6')).comments, { timeout: 15_000 }).toEqual(['Watched it full screen']);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Back: the feed, at the card the viewer was opened from.
      await page.goBack();
      await page.waitForURL((u) => u.pathname === '/home');
      await expect.poll(() => card.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
      const top = await card.evaluate((el) => el.getBoundingClientRect().top);
      expect(top).toBeLessThan(844 / 2);
    } finally {
      await page.context().close();
    }
  });

  test('a shared /watch/{id} link opens the viewer at that video, and Close goes to the feed', async ({ server, browser }) => {
    const page = await phone(server, browser);
    try {
      await page.goto(`${server.url}/watch/viewer-video-3`);
      await expectPlaying(page, 3);
      expect(await page.getByRole('heading', { name: title(3) }).count()).toBe(1);
      // Tab goes round the viewer's controls, never to the layout hidden under it.
      for (let n = 0; n < 15; n++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => !!document.activeElement?.closest('.viewer'))).toBe(true);
      }
      await page.getByRole('button', { name: 'Close viewer' }).click();
      await page.waitForURL((u) => u.pathname === '/home');
    } finally {
      await page.context().close();
    }
  });

  test('offline, a video saved for offline plays in the viewer', async ({ server, browser }) => {
    const page = await phone(server, browser);
    try {
      await waitForServiceWorker(page);
      await page.goto(`${server.url}/watch/viewer-video-2`);
      await expectPlaying(page, 2);
      // Watching keeps the small MP4 (docs/media.md, "Offline"): the menu says it is saved.
      await slide(page, 2).getByRole('button', { name: 'More options' }).click();
      expect(await slide(page, 2).getByRole('button', { name: 'Saved for offline' }).isDisabled()).toBe(true);

      await page.context().setOffline(true);
      await page.reload();
      await expectPlaying(page, 2);
      expect(await slide(page, 2).locator('video').getAttribute('data-source')).toBe('offline');
    } finally {
      await page.context().setOffline(false);
      await page.context().close();
    }
  });
});
