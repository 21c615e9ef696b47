import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium, saveScreenshot } from '../helpers/browser';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { mp4Faststart, mp4ThreeMinutes, mp4TwelveMegabytes } from '../fixtures/videos';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { toastText } from './toasts';
import { expectPlayedPast, recordMediaEvents } from './media-playback';

async function openDialog(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Video' });
  await dialog.waitFor();
  return dialog;
}

describe.skipIf(!hasChromium)('uploading from the browser', () => {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = uniqueEmail('uploader');

  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
    await signUpVerified(server, 'Uma Uploader', email);
    context = await browser.newContext();
    page = await context.newPage();
    await logInThroughUi(page, server, email);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('checks the form with the copy of the spec before queueing', async () => {
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

    await picker.setInputFiles(await mp4ThreeMinutes());
    await toastText(page, 'Video too long');
    await page.getByText('Please select a video of 2 minutes or less').waitFor();
    expect(await picker.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('uploads a video: the success toast, and a card that plays it', async () => {
    const dialog = await openDialog(page);
    await dialog.getByLabel('Title').fill('Test pattern');
    await dialog.getByLabel('Description (optional)').fill('Colour bars');
    await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(await mp4Faststart());
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await toastText(page, 'Video uploaded!');
    await page.getByText('Your video has been shared successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByRole('article', { name: 'Test pattern' });
    await card.waitFor();
    await expect.poll(() => card.locator('video').getAttribute('src'), { timeout: 30_000 }).toMatch(/^\/media\//);
    await card.scrollIntoViewIfNeeded();
    await recordMediaEvents(page);
    await card.getByRole('button', { name: 'Play Test pattern' }).click();
    await expectPlayedPast(page, card.locator('video'), 0.5);
    expect(await card.locator('video').evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
  });

  it('survives going offline midway and a reload: resumes from the stored URL and the video plays in the feed', async () => {
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
    await expect.poll(() => card.locator('video').getAttribute('src'), { timeout: 60_000 }).toMatch(/^\/media\//);

    // One upload created; the resumed PATCHes started where the server was, not at 0.
    expect(creates).toHaveLength(1);
    expect(patchOffsets[0]).toBe(0);
    const resumedFrom = patchOffsets.filter((o) => o > 0);
    expect(resumedFrom.length).toBeGreaterThan(0);
    expect(patchOffsets.lastIndexOf(0)).toBe(0);
    // The first 5 MiB chunk was acknowledged before the cut: the resume starts at or after it.
    expect(patchOffsets.at(-1)).toBeGreaterThanOrEqual(5 * 1024 * 1024);

    // The stored file is the picked file, byte for byte.
    const src = await card.locator('video').getAttribute('src');
    const served = Buffer.from(await (await fetch(server.url + src!)).arrayBuffer());
    expect(createHash('sha256').update(served).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));

    // And it plays: tap to play, and the player's clock moves.
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('button', { name: 'Play Cut and resumed' }).click();
    await card.getByRole('button', { name: 'Pause Cut and resumed' }).waitFor();
    await expect.poll(() => card.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.2);
    await saveScreenshot(page, 'upload-resumed-playing');
  });
});
