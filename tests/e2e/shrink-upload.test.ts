import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect } from 'vitest';
import type { CDPSession, Locator, Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { audioCodecs, phone1080p, removeShrinkClips, videoSize } from '../fixtures/shrink-clips';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';

// Shrink before upload (docs/pwa.md, "Shrink before upload"): a 1080p clip picked on a slow connection is
// offered a 720p copy made in the browser (mediabunny over WebCodecs), and that copy is what the server gets.

// DevTools' network emulation reaches the Network Information API: with these conditions Chromium reports
// effectiveType '3g' and a downlink under 1 Mbit/s (it leaves `type` undefined on desktop), so no
// navigator.connection override is needed.
const SLOW = { offline: false, latency: 300, downloadThroughput: 200_000, uploadThroughput: 200_000, connectionType: 'cellular3g' } as const;
const FAST = { offline: false, latency: 2, downloadThroughput: 12_500_000, uploadThroughput: 12_500_000, connectionType: 'wifi' } as const;

async function storedOriginal(server: ServerProcess, title: string, dir: string): Promise<string> {
  const { db, close } = openServerDatabase(server);
  let key: string;
  try {
    key = (await db.selectFrom('videos').select('file_key').where('title', '=', title).executeTakeFirstOrThrow()).file_key;
  } finally {
    await close();
  }
  const res = await fetch(`${server.url}/media/${key}`);
  expect(res.status).toBe(200);
  const file = join(dir, `${createHash('sha256').update(title).digest('hex').slice(0, 8)}.bin`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

async function waitUntilProcessed(card: Locator): Promise<void> {
  await card.waitFor({ timeout: 60_000 });
  await expect.poll(() => card.getByText(/^Processing/).count(), { timeout: 120_000 }).toBe(0);
  await card.locator('video').waitFor();
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

interface Shrinker {
  page: Page;
  cdp: CDPSession;
  /** The 1080p phone clip the member picks. */
  clip: string;
  /** Where the server's stored originals are fetched to, to compare with the clip. */
  scratch: string;
}

// One member's page goes through the file's uploads, its network conditions set over DevTools.
const test = pwaTest().extend('shrinker', { scope: 'file' }, async ({ server, browser }, { onCleanup }): Promise<Shrinker> => {
  const scratch = mkdtempSync(join(tmpdir(), 'vidi-shrink-e2e-'));
  const context = await browser.newContext();
  onCleanup(async () => {
    await context.close();
    removeShrinkClips();
    rmSync(scratch, { recursive: true, force: true });
  });
  const clip = await phone1080p(4);
  const email = uniqueEmail('shrinker');
  await signUpVerified(server, 'Sana Shrinker', email);
  const page = await context.newPage();
  await logInThroughUi(page, server, email);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  return { page, cdp, clip, scratch };
});

describe.skipIf(!hasChromium)('shrinking a video before upload', () => {
  async function pickOnSlowConnection({ page, cdp, clip }: Shrinker, title: string) {
    await cdp.send('Network.emulateNetworkConditions', SLOW);
    await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Video' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(clip);
    const offer = dialog.getByRole('group', { name: 'Shrink before uploading' });
    await offer
      .getByText(/^This video is 1080p \(\d+\.\d MB\)\. Your connection looks slow: shrink it to 720p before uploading\? About \d+\.\d MB\.$/)
      .waitFor({ timeout: 30_000 });
    return { dialog, offer };
  }

  async function uploadOnFastConnection({ cdp }: Shrinker, dialog: Locator) {
    await cdp.send('Network.emulateNetworkConditions', FAST);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
  }

  test('offers a 720p copy on a slow connection, makes it, and uploads it instead of the original', async ({ server, shrinker }) => {
    const { page, clip, scratch } = shrinker;
    const encoders = await page.evaluate(async () => {
      const ask = async (codec: string) => (await VideoEncoder.isConfigSupported({ codec, width: 1280, height: 720, bitrate: 2_000_000 })).supported === true;
      return { h264: await ask('avc1.42001f'), vp9: await ask('vp09.00.31.08'), vp8: await ask('vp8') };
    });
    console.log(`this Chromium's WebCodecs encoders at 720p: ${JSON.stringify(encoders)}`);
    expect(encoders.h264 || encoders.vp9 || encoders.vp8).toBe(true);

    const { dialog, offer } = await pickOnSlowConnection(shrinker, 'Shrunk on 3G');
    await saveScreenshot(page, 'shrink-offer');
    await offer.getByRole('button', { name: 'Shrink' }).click();
    await dialog.getByRole('progressbar', { name: 'Shrink progress' }).waitFor();
    // Nothing goes up while the copy is being made.
    expect(await dialog.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    await dialog.getByText(/^Shrunk: \d+\.\d MB instead of \d+\.\d MB\.$/).waitFor({ timeout: 180_000 });
    const ext = encoders.h264 ? 'mp4' : 'webm';
    await dialog.getByText(new RegExp(`^${basename(clip, '.mp4')}-720p\\.${ext} \\(\\d+\\.\\d MB\\)$`)).waitFor();
    await saveScreenshot(page, 'shrink-done');

    await uploadOnFastConnection(shrinker, dialog);
    await waitUntilProcessed(page.getByRole('article', { name: 'Shrunk on 3G' }));

    const stored = await storedOriginal(server, 'Shrunk on 3G', scratch);
    expect(statSync(stored).size).toBeLessThan(statSync(clip).size / 2);
    expect(await videoSize(stored)).toMatchObject({ width: 1280, height: 720, codec: encoders.h264 ? 'h264' : expect.stringMatching(/^vp[89]$/) });
    // The sound came along (copied, or re-encoded where the container needs it).
    expect((await audioCodecs(stored)).length).toBe(1);
  });

  test('Cancel stops the shrinking and keeps the original, which is what uploads', async ({ server, shrinker }) => {
    const { page, clip, scratch } = shrinker;
    const { dialog, offer } = await pickOnSlowConnection(shrinker, 'Original after cancel');
    await offer.getByRole('button', { name: 'Shrink' }).click();
    await dialog.getByRole('progressbar', { name: 'Shrink progress' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel shrinking' }).click();
    await dialog.getByRole('progressbar', { name: 'Shrink progress' }).waitFor({ state: 'detached' });
    const mb = (statSync(clip).size / 1048576).toFixed(1);
    await dialog.getByText(`${basename(clip)} (${mb} MB)`, { exact: true }).waitFor();
    expect(await dialog.getByText(/^Shrunk:/).count()).toBe(0);

    await uploadOnFastConnection(shrinker, dialog);
    await waitUntilProcessed(page.getByRole('article', { name: 'Original after cancel' }));
    expect(sha(await storedOriginal(server, 'Original after cancel', scratch))).toBe(sha(clip));
  });

  test("offers it on a fast connection too when the member's data saver is on; Keep original, or closing the dialog mid-shrink, keeps the file", async ({
    shrinker,
  }) => {
    const { page, cdp, clip } = shrinker;
    await page.evaluate(() => localStorage.setItem('vidi.mediaPreferences', JSON.stringify({ dataSaver: true, downloadAhead: false })));
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await cdp.send('Network.emulateNetworkConditions', FAST);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Video' });
    await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(clip);
    const offer = dialog.getByRole('group', { name: 'Shrink before uploading' });
    await offer
      .getByText(/^This video is 1080p \(\d+\.\d MB\)\. Data saver is on: shrink it to 720p before uploading\? About \d+\.\d MB\.$/)
      .waitFor({ timeout: 30_000 });
    await saveScreenshot(page, 'shrink-offer-phone');
    await offer.getByRole('button', { name: 'Keep original' }).click();
    await offer.waitFor({ state: 'detached' });
    await dialog.getByText(`${basename(clip)} (${(statSync(clip).size / 1048576).toFixed(1)} MB)`, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // Closing the dialog mid-shrink stops it: reopened, the original is still the chosen file.
    await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
    await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(clip);
    await offer.getByRole('button', { name: 'Shrink' }).click();
    await dialog.getByRole('progressbar', { name: 'Shrink progress' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText(`${basename(clip)} (${(statSync(clip).size / 1048576).toFixed(1)} MB)`, { exact: true }).waitFor();
    expect(await dialog.getByRole('progressbar', { name: 'Shrink progress' }).count()).toBe(0);
    expect(await dialog.getByText(/^Shrunk:/).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.evaluate(() => localStorage.removeItem('vidi.mediaPreferences'));
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  test('offers nothing on a fast connection and never loads the shrinking code', async ({ server, shrinker }) => {
    const { page, cdp, clip, scratch } = shrinker;
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await cdp.send('Network.emulateNetworkConditions', FAST);
    await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Video' });
    await dialog.getByLabel('Title').fill('Straight from wifi');
    await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(clip);
    await dialog.getByText(`${basename(clip)} (${(statSync(clip).size / 1048576).toFixed(1)} MB)`, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 60_000 });
    await waitUntilProcessed(page.getByRole('article', { name: 'Straight from wifi' }));

    expect(sha(await storedOriginal(server, 'Straight from wifi', scratch))).toBe(sha(clip));
    // The offer needs the probe, and the probe needs these chunks: none was fetched since the reload.
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(loaded.filter((u) => /shrink/.test(u))).toEqual([]);
    expect(loaded.some((u) => /\/assets\/.+\.js$/.test(u))).toBe(true);
  });
});
