import { describe, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { insertVideo } from '#tests/helpers/videos';
import { hasChromium } from '../helpers/browser';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { expectPlayedPast, recordMediaEvents } from './media-playback';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';

// The feed's HLS playback in Chromium (docs/pwa.md, "Feed"): hls.js over MSE, one segment preloaded
// for the next card only, data saver capped at 360p. The ladder is made here with ffmpeg in the
// shape the server's pipeline writes (docs/media.md): {media_key}/master.m3u8 over fMP4 renditions
// of 2 s segments, small.mp4 and poster.jpg.

const run = promisify(execFile);
const CREATOR = 'creator-hls';
const VIDEOS = 4;
const RENDITIONS = [
  { name: 'v360', width: 360, height: 640, bitrate: 400_000 },
  { name: 'v720', width: 720, height: 1280, bitrate: 1_500_000 },
];

async function makeLadder(dir: string): Promise<void> {
  // Drawn at each rendition's own size (no 1080x1920 picture to scale down) and encoded with a fast
  // preset: the tests look at which files are fetched and that playback advances, not at the picture.
  const source = (size: string) => [
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${size}:rate=30`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    '8',
  ];
  const h264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-level', '3.1', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k'];
  for (const r of RENDITIONS) {
    mkdirSync(join(dir, r.name), { recursive: true });
    // A keyframe every 2 s (60 frames), so every segment starts with one.
    await run('ffmpeg', [
      ...['-loglevel', 'error', '-y', ...source(`${r.width}x${r.height}`), ...h264, '-b:v', String(r.bitrate)],
      ...['-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod'],
      ...['-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(dir, r.name, 'seg_%03d.m4s')],
      join(dir, r.name, 'index.m3u8'),
    ]);
  }
  const variants = RENDITIONS.map(
    (r) => `#EXT-X-STREAM-INF:BANDWIDTH=${r.bitrate + 64_000},RESOLUTION=${r.width}x${r.height},CODECS="avc1.4d401f,mp4a.40.2"\n${r.name}/index.m3u8`,
  );
  writeFileSync(join(dir, 'captions.vtt'), 'WEBVTT\n\n00:00.000 --> 00:08.000\nHello from the captions\n');
  writeFileSync(join(dir, 'master.m3u8'), ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS', ...variants, ''].join('\n'));
  await run('ffmpeg', ['-loglevel', 'error', '-y', ...source('360x640'), ...h264, '-movflags', '+faststart', join(dir, 'small.mp4')]);
  await run('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=360x640', '-frames:v', '1', join(dir, 'poster.jpg')]);
}

const mediaKey = (i: number) => `${CREATOR}/hls-video-${i}/job1`;
const originalKey = (i: number) => `${CREATOR}/original-${i}.mov`;

/** Ready videos with renditions, newest first in the feed as card i; their originals are never served. */
async function seedVideos(server: ServerProcess, ladder: string, viewerEmail: string): Promise<void> {
  const { db, close } = openServerDatabase(server);
  try {
    const base = Date.now() - 60_000;
    const viewer = await db.selectFrom('profiles').select('id').where('email', '=', viewerEmail).executeTakeFirstOrThrow();
    await db
      .insertInto('profiles')
      .values({
        id: CREATOR,
        email: 'creator-hls@seed.test',
        name: 'HLS Creator',
        handle: 'hls_creator',
        is_admin: 0,
        is_active: 1,
        account_status: 'active',
        email_verified_at: base,
        created_at: base,
        updated_at: base,
      })
      .execute();
    for (let i = 0; i < VIDEOS; i++) {
      cpSync(ladder, join(server.dataDir, 'media', mediaKey(i)), { recursive: true });
      await insertVideo({ db }, CREATOR, {
        id: `hls-video-${i}`,
        title: `HLS clip ${i}`,
        file_key: originalKey(i),
        mime_type: 'video/quicktime',
        size_bytes: 1,
        duration_ms: 8000,
        poster_key: `${mediaKey(i)}/poster.jpg`,
        created_at: base - i * 1000,
        media_progress: 100,
        media_key: mediaKey(i),
        captions_key: i === 0 ? `${mediaKey(i)}/captions.vtt` : null,
      });
    }
    // The viewer's own uploads the server is still processing or failed to process (oldest cards).
    const own = (id: string, media_status: string, media_progress: number, media_error: string | null, created_at: number) =>
      insertVideo({ db }, viewer.id, {
        id,
        title: id,
        file_key: `${viewer.id}/${id}.mp4`,
        size_bytes: 1,
        duration_ms: 8000,
        created_at,
        media_status,
        media_progress,
        media_error,
      });
    await own('still-processing', 'processing', 42, null, base - 10_000);
    await own('could-not-process', 'failed', 0, 'Unsupported codec', base - 11_000);
  } finally {
    await close();
  }
}

/** Every request the context makes (page and service worker), by path. */
function recordRequests(context: BrowserContext): string[] {
  const seen: string[] = [];
  context.on('request', (r) => seen.push(new URL(r.url()).pathname));
  return seen;
}

/** The distinct files of card i's folder that were requested (the service worker's own fetch repeats the page's). */
const ofCard = (seen: string[], i: number) => [
  ...new Set(seen.filter((p) => p.startsWith(`/media/${mediaKey(i)}/`)).map((p) => p.slice(`/media/${mediaKey(i)}/`.length))),
];
const segments = (paths: string[]) => paths.filter((p) => p.endsWith('.m4s'));

// No media worker: the seeded rows are ready already, and nothing must re-process them.
const test = pwaTest({ MEDIA_WORKER: 'off' });

describe.skipIf(!hasChromium)('the feed plays HLS', () => {
  const email = uniqueEmail('hls-viewer');

  test.beforeAll(async ({ server }) => {
    const ladder = mkdtempSync(join(tmpdir(), 'vidi-ladder-'));
    await makeLadder(ladder);
    await signUpVerified(server, 'Hana Viewer', email);
    await seedVideos(server, ladder, email);
    rmSync(ladder, { recursive: true, force: true });
  }, 180_000);

  /** A phone at 2x: the 360 px wide player needs the 720p rendition for a sharp picture. */
  async function openFeed(server: ServerProcess, browser: Browser, dataSaver: boolean): Promise<{ context: BrowserContext; page: Page; seen: string[] }> {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });
    await context.addInitScript((on) => localStorage.setItem('vidi.mediaPreferences', JSON.stringify({ dataSaver: on, downloadAhead: false })), dataSaver);
    const seen = recordRequests(context);
    const page = await context.newPage();
    await logInThroughUi(page, server, email);
    await page.locator('article[data-index="0"] video').waitFor();
    await recordMediaEvents(page);
    return { context, page, seen };
  }

  async function playFirstCard(page: Page): Promise<void> {
    const card = page.locator('article[data-index="0"]');
    await card.getByRole('button', { name: 'Play HLS clip 0' }).click();
    const video = card.locator('video');
    await expectPlayedPast(page, video, 2.5);
    expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
    expect(await video.getAttribute('data-source')).toBe('hls.js');
    await expect.poll(() => card.getByRole('button', { name: 'Pause HLS clip 0' }).count()).toBe(1);
  }

  test('plays through hls.js with a picture; the next card buffers only its first segment, the one after only its poster', async ({ server, browser }) => {
    const { context, page, seen } = await openFeed(server, browser, false);
    try {
      // Before any tap: the card in view and the next one have one segment each, nothing more.
      await expect.poll(() => segments(ofCard(seen, 1)).length, { timeout: 20_000 }).toBe(1);
      await playFirstCard(page);
      expect(segments(ofCard(seen, 0)).length).toBeGreaterThan(1);
      // Fitted to the 720 device-pixel wide player on a fast link, not the smallest rendition.
      expect(ofCard(seen, 0)).toContain('v720/index.m3u8');
      // Still only the first segment of card 1, at one rendition.
      const next = segments(ofCard(seen, 1));
      expect(next).toHaveLength(1);
      expect(next[0]).toMatch(/\/seg_000\.m4s$/);
      expect(ofCard(seen, 2)).toEqual(['poster.jpg']);
      expect(ofCard(seen, 3)).toEqual([]);
      // The original upload is never fetched when renditions exist.
      for (let i = 0; i < VIDEOS; i++) expect(seen).not.toContain(`/media/${originalKey(i)}`);
    } finally {
      await context.close();
    }
  });

  test('with data saver, requests only the 360p playlist and segments, and preloads nothing', async ({ server, browser }) => {
    const { context, page, seen } = await openFeed(server, browser, true);
    try {
      await playFirstCard(page);
      const first = ofCard(seen, 0).filter((p) => p.endsWith('.m3u8') || p.endsWith('.m4s') || p.endsWith('init.mp4'));
      expect(first.filter((p) => p !== 'master.m3u8').every((p) => p.startsWith('v360/'))).toBe(true);
      expect(segments(first).length).toBeGreaterThan(1);
      for (const i of [1, 2]) expect(ofCard(seen, i).filter((p) => p !== 'poster.jpg')).toEqual([]);
      for (let i = 0; i < VIDEOS; i++) expect(seen).not.toContain(`/media/${originalKey(i)}`);
    } finally {
      await context.close();
    }
  });

  test('shows processing and failed states on the uploader cards, a captions toggle, and Save for offline', async ({ server, browser }) => {
    const { context, page } = await openFeed(server, browser, false);
    try {
      const processing = page.locator('article', { has: page.getByRole('heading', { name: 'still-processing' }) });
      await expect.poll(() => processing.getByText('Processing… 42%').count()).toBe(1);
      expect(await processing.getByRole('progressbar', { name: 'Processing progress' }).getAttribute('value')).toBe('42');
      const failed = page.locator('article', { has: page.getByRole('heading', { name: 'could-not-process' }) });
      expect(await failed.getByText("We couldn't process this video: Unsupported codec").count()).toBe(1);

      const first = page.locator('article[data-index="0"]');
      const cc = first.getByRole('button', { name: 'Captions' });
      expect(await cc.getAttribute('aria-pressed')).toBe('true');
      await cc.click();
      expect(await cc.getAttribute('aria-pressed')).toBe('false');
      expect(await first.locator('video').evaluate((v: HTMLVideoElement) => v.textTracks[0]?.mode)).toBe('hidden');
      expect(await page.locator('article[data-index="1"]').getByRole('button', { name: 'Captions' }).count()).toBe(0);

      await first.getByRole('button', { name: 'Save for offline' }).click();
      await page.getByText('Saved for offline').first().waitFor();
      await first.getByRole('button', { name: 'Saved for offline' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
