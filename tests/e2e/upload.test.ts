import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { mp4Faststart, mp4ThreeMinutes, mp4TwelveMegabytes } from '../fixtures/videos';
import { h264At60, iphoneHevcMov, vp9Webm } from '../fixtures/media-clips';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { toastText } from './toasts';
import { expectPlayedPast, recordMediaEvents } from './media-playback';
import { waitForServiceWorker } from './feed-actions';

const CAPTIONS = 'WEBVTT\n\n00:00.000 --> 00:02.500\nColour bars\n';

/** The stored original's key, read from the server's database (the card streams the processed copy). */
async function originalKey(server: ServerProcess, title: string): Promise<string> {
  const { db, close } = openServerDatabase(server);
  try {
    return (await db.selectFrom('videos').select('file_key').where('title', '=', title).executeTakeFirstOrThrow()).file_key;
  } finally {
    await close();
  }
}

/** Waits until the server has processed the card's video: no progress shown, and the player is there. */
async function waitUntilProcessed(card: Locator): Promise<void> {
  await expect.poll(() => card.getByText(/^Processing/).count(), { timeout: 90_000 }).toBe(0);
  await card.locator('video').waitFor();
}

async function openDialog(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Video' });
  await dialog.waitFor();
  return dialog;
}

// One member's page goes through the file's uploads (the offline one resumes on it): made once per file.
const test = pwaTest().extend('uploader', { scope: 'file' }, async ({ server, browser }, { onCleanup }) => {
  const email = uniqueEmail('uploader');
  await signUpVerified(server, 'Uma Uploader', email);
  const context = await browser.newContext();
  onCleanup(() => context.close());
  const page = await context.newPage();
  await logInThroughUi(page, server, email);
  return { page, context };
});

describe.skipIf(!hasChromium)('uploading from the browser', () => {
  test('checks the form with the copy of the spec before queueing', async ({ uploader: { page } }) => {
    const dialog = await openDialog(page);
    await dialog.getByLabel('Title').waitFor();
    await dialog.getByLabel('Description (optional)').waitFor();
    const picker = dialog.getByLabel('Video File (max 2 minutes)');
    expect(await picker.getAttribute('accept')).toBe('video/*');

    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await toastText(page, 'Missing information');
    await page.getByText('Please provide a title and select a video file').waitFor();

    await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a video') });
    await toastText(page, 'Invalid file type');
    await page.getByText('Please select a video file', { exact: true }).waitFor();

    await dialog.getByLabel('Captions (optional, WebVTT)').setInputFiles({ name: 'notes.vtt', mimeType: 'text/vtt', buffer: Buffer.from('just words') });
    await toastText(page, 'Invalid captions file');

    await picker.setInputFiles(await mp4ThreeMinutes());
    await toastText(page, 'Video too long');
    await page.getByText('Please select a video of 2 minutes or less').waitFor();
    expect(await picker.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('uploads a video with captions: the success toast, then a processed card that plays it with a CC toggle', async ({ uploader: { page } }) => {
    const dialog = await openDialog(page);
    await dialog.getByLabel('Title').fill('Test pattern');
    await dialog.getByLabel('Description (optional)').fill('Colour bars');
    await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(await mp4Faststart());
    await dialog.getByLabel('Captions (optional, WebVTT)').setInputFiles({ name: 'bars.vtt', mimeType: 'text/vtt', buffer: Buffer.from(CAPTIONS) });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await toastText(page, 'Video uploaded!');
    await page.getByText('Your video has been shared successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByRole('article', { name: 'Test pattern' });
    await card.waitFor();
    await waitUntilProcessed(card);
    const cc = card.getByRole('button', { name: 'Captions' });
    await cc.waitFor();
    expect(await card.locator('track').getAttribute('src')).toMatch(/\/captions-[0-9a-f]{32}\.vtt$/);
    await card.scrollIntoViewIfNeeded();
    await recordMediaEvents(page);
    await card.getByRole('button', { name: 'Play Test pattern' }).click();
    await expectPlayedPast(page, card.locator('video'), 0.5);
    expect(await card.locator('video').evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
    expect(await card.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
  });

  test('survives going offline midway and a reload: resumes from the stored URL and the video plays in the feed', async ({
    server,
    uploader: { page, context },
  }) => {
    // The offline reload below is answered by the service worker: it must control the page first.
    await waitForServiceWorker(page);
    const file = await mp4TwelveMegabytes();
    const bytes = readFileSync(file);
    const creates: string[] = [];
    const patchOffsets: number[] = [];
    page.on('request', (r) => {
      if (!r.url().includes('/files')) return;
      if (r.method() === 'POST') creates.push(r.url());
      if (r.method() === 'PATCH') patchOffsets.push(Number(r.headers()['upload-offset']));
    });
    // A slow uplink (about 2 MB/s) so the cut lands mid-file.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });

    const dialog = await openDialog(page);
    await dialog.getByLabel('Title').fill('Cut and resumed');
    await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(file);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
    await bar.waitFor();
    // Past the first 5 MiB chunk (acknowledged), then the network goes.
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000 }).toBeGreaterThanOrEqual(55);
    await dialog.getByRole('button', { name: /^Uploading\.\.\. \d+%$/ }).waitFor();
    await context.setOffline(true);
    await dialog.getByText('You are offline. The upload will continue when you are back online.').waitFor();
    await saveScreenshot(page, 'upload-offline-midway');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    const card = page.getByRole('article', { name: 'Cut and resumed' });
    await card.waitFor();
    await card.getByText('Pending').waitFor();
    await saveScreenshot(page, 'upload-pending-after-reload');

    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await context.setOffline(false);
    await toastText(page, 'Video uploaded!');
    await expect.poll(() => card.getByText('Pending').count(), { timeout: 60_000 }).toBe(0);
    await waitUntilProcessed(card);

    // One upload created; the resumed PATCHes started where the server was, not at 0.
    expect(creates).toHaveLength(1);
    expect(patchOffsets[0]).toBe(0);
    const resumedFrom = patchOffsets.filter((o) => o > 0);
    expect(resumedFrom.length).toBeGreaterThan(0);
    expect(patchOffsets.lastIndexOf(0)).toBe(0);
    // The first 5 MiB chunk was acknowledged before the cut: the resume starts at or after it.
    expect(patchOffsets.at(-1)).toBeGreaterThanOrEqual(5 * 1024 * 1024);

    // The stored file is the picked file, byte for byte.
    const served = Buffer.from(await (await fetch(`${server.url}/media/${await originalKey(server, 'Cut and resumed')}`)).arrayBuffer());
    expect(createHash('sha256').update(served).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));

    // And it plays: tap to play, and the player's clock moves.
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('button', { name: 'Play Cut and resumed' }).click();
    await card.getByRole('button', { name: 'Pause Cut and resumed' }).waitFor();
    await expect.poll(() => card.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.2);
    await saveScreenshot(page, 'upload-resumed-playing');
  });

  // Chromium cannot decode HEVC: before processing, this .mov played its sound with no picture.
  test('plays an iPhone-style HEVC .mov, a 1080p60 clip and a WebM with a picture, from the HLS ladder', async ({ uploader: { page } }) => {
    const clips: Array<[string, string]> = [
      ['iPhone HEVC', await iphoneHevcMov()],
      ['Sixty frames', await h264At60()],
      ['Web VP9', await vp9Webm()],
    ];
    const hls: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (/\.(m3u8|m4s)$/.test(new URL(r.url()).pathname)) hls.push(r.url());
    };
    page.on('request', onRequest);
    for (const [title, file] of clips) {
      const dialog = await openDialog(page);
      await dialog.getByLabel('Title').fill(title);
      await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(file);
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    }
    for (const [title] of clips) {
      const card = page.getByRole('article', { name: title });
      await waitUntilProcessed(card);
      const videoId = (await card.getAttribute('id'))!.replace(/^video-/, '');
      await card.scrollIntoViewIfNeeded();
      await recordMediaEvents(page);
      await card.getByRole('button', { name: `Play ${title}` }).click();
      await expectPlayedPast(page, card.locator('video'), 0.5);
      expect(await card.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), title).toBeGreaterThan(0);
      // Streamed from the ladder (the card may have preloaded its first segment before the tap).
      expect(
        hls.some((u) => u.includes(`/${videoId}/`) && u.endsWith('.m4s')),
        title,
      ).toBe(true);
      await card.getByRole('button', { name: `Pause ${title}` }).click();
    }
    page.off('request', onRequest);
  });
});
