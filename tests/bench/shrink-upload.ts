import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser';
import { openServerDatabase, startServer, type ServerProcess } from '../helpers/server-process';
import { phone1080p, removeShrinkClips } from '../fixtures/shrink-clips';
import { CACHE_DIR } from './media-fixtures';
import { ratioRow, unavailable, type BenchRow } from './lib/result';
import { logIn, signUpMember, waitForServiceWorker } from './lib/pwa';
import type { Benchmark, BenchContext } from './lib/context';

const CLIP_SECONDS = 60;
/** A 1.6 Mbit/s uplink (and downlink): a modest mobile connection, slow enough that the dialog offers to shrink. */
const UPLINK = { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 200_000, connectionType: 'cellular3g' } as const;
const NAME = `Shrink before upload: 1080p ${CLIP_SECONDS} s at 8 Mbit/s over a 1.6 Mbit/s uplink`;

/** The 60 s clip, kept between runs (encoding it takes a while on two cores). */
async function clip(): Promise<string> {
  const file = join(CACHE_DIR, `shrink-1080p-${CLIP_SECONDS}s.mp4`);
  if (!existsSync(file)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    copyFileSync(await phone1080p(CLIP_SECONDS), file);
    removeShrinkClips();
  }
  return file;
}

interface Sample {
  /** Bytes of the file as it went up. */
  bytes: number;
  /** From the member's choice (Shrink, or Upload for the original) to the server's acceptance, in seconds. */
  seconds: number;
  /** Of which, making the shrunk copy in the browser. */
  shrinkSeconds: number;
}

/**
 * The bytes the server stored for the upload titled so: what went up (tus sends each byte once unless
 * a chunk fails; Playwright cannot see the sizes of Blob request bodies).
 */
async function storedBytes(server: ServerProcess, title: string): Promise<number> {
  const { db, close } = openServerDatabase(server);
  try {
    const { file_key } = await db.selectFrom('videos').select('file_key').where('title', '=', title).executeTakeFirstOrThrow();
    // One byte is enough: a ranged answer names the whole length (RFC 9110, Content-Range).
    const res = await fetch(`${server.url}/media/${file_key}`, { headers: { range: 'bytes=0-0' } });
    await res.arrayBuffer();
    const length = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1]);
    if (res.status !== 206 || !length) throw new Error(`the stored upload answered ${res.status} without a length`);
    return length;
  } finally {
    await close();
  }
}

async function uploadOnce(server: ServerProcess, page: Page, file: string, shrink: boolean): Promise<Sample> {
  const title = shrink ? 'Bench shrunk' : 'Bench original';
  await page.getByRole('banner').getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Video' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(file);
  const offer = dialog.getByRole('group', { name: 'Shrink before uploading' });
  await offer.waitFor({ timeout: 60_000 });
  let shrinkSeconds = 0;
  const started = performance.now();
  if (shrink) {
    await offer.getByRole('button', { name: 'Shrink' }).click();
    await dialog.getByText(/^Shrunk: /).waitFor({ timeout: 30 * 60_000 });
    shrinkSeconds = (performance.now() - started) / 1000;
  } else {
    await offer.getByRole('button', { name: 'Keep original' }).click();
  }
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  // The dialog closes once the queue has the server's acceptance (the upload finished and was checked).
  await dialog.waitFor({ state: 'detached', timeout: 60 * 60_000 });
  const seconds = (performance.now() - started) / 1000;
  return { bytes: await storedBytes(server, title), seconds, shrinkSeconds };
}

async function signedIn(context: BrowserContext, origin: string, dataDir: string): Promise<Page> {
  const page = await context.newPage();
  await logIn(page, origin, await signUpMember(origin, dataDir, 'Bench Shrinker'));
  await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
  await waitForServiceWorker(page);
  return page;
}

async function measure(ctx: BenchContext): Promise<BenchRow[]> {
  const file = await clip();
  // Its own server with no media worker: processing the first upload must not eat the CPU the browser
  // needs to shrink the next one. VIDI_CLIENT_DIST measures a private build, as the e2e tests do.
  const server = await startServer({ env: { LOG_LEVEL: 'error', MEDIA_WORKER: 'off', CLIENT_DIST: process.env.VIDI_CLIENT_DIST ?? ctx.clientDist } });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await signedIn(context, server.url, server.dataDir);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', UPLINK);
    ctx.log(`shrink: ${(statSync(file).size / 1048576).toFixed(1)} MB clip; uploading it shrunk, then as it is`);
    const shrunk = await uploadOnce(server, page, file, true);
    ctx.log(`shrink: shrunk ${(shrunk.bytes / 1048576).toFixed(1)} MB in ${shrunk.seconds.toFixed(0)} s (shrinking ${shrunk.shrinkSeconds.toFixed(0)} s)`);
    const original = await uploadOnce(server, page, file, false);
    ctx.log(`shrink: original ${(original.bytes / 1048576).toFixed(1)} MB in ${original.seconds.toFixed(0)} s`);
    const note = 'one upload each, same browser and uplink; ours = shrunk, baseline = original';
    return [
      ratioRow({ name: `${NAME}: bytes sent`, unit: 'MB', direction: 'lower', notes: note }, [shrunk.bytes / 1048576], [original.bytes / 1048576]),
      ratioRow(
        { name: `${NAME}: time to the server's acceptance (shrinking included)`, unit: 's', direction: 'lower', notes: note },
        [shrunk.seconds],
        [original.seconds],
      ),
      ratioRow(
        {
          name: `${NAME}: shrinking in the browser vs the clip's length`,
          unit: 's',
          direction: 'lower',
          notes: 'WebCodecs in headless Chromium, 2 shared cores',
        },
        [shrunk.shrinkSeconds],
        [CLIP_SECONDS],
      ),
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** The same 1080p clip uploaded from the app in Chromium, once shrunk to 720p first and once as it is. */
export const shrinkUpload: Benchmark = {
  id: 'shrink',
  title: 'Shrink before upload',
  async run(ctx) {
    if (!hasChromium) return [unavailable(NAME, 'MB', 'report', 'no Chromium (set CHROMIUM_PATH)')];
    return measure(ctx);
  },
};
