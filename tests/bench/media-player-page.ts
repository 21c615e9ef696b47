import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { PROJECT_ROOT } from '#tests/helpers/server-process';
import type { LevelInfo } from '#client/features/feed/components/hls-levels';
import { bufferLimits, playerPlan, type LinkHints } from '#client/features/feed/components/link-rule';

/** The emulated link: 1.6 Mbit/s down, 150 ms round trip (a slow 4G / good 3G phone). */
export const LINK = { downBitsPerSecond: 1_600_000, upBitsPerSecond: 750_000, latencyMs: 150 };

/** A phone-sized player: 360x640 CSS px at 2x, as on the feed. */
const VIEWPORT = { width: 360, height: 640 };
const DPR = 2;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>player bench</title></head>
<body style="margin:0;background:#000">
<video id="v" muted playsinline preload="none" style="display:block;width:${VIEWPORT.width}px;height:${VIEWPORT.height - 40}px"></video>
<button id="play" style="height:40px;width:100%">play</button>
</body></html>`;

/**
 * The page's side. hls.js is created as the feed's player creates it
 * (client/features/feed/components/use-hls-source.ts): no loading before the start level is set,
 * capped to the player's size, `feedBufferLimits`. `prepare()` is the feed's preloading card (the
 * one in view or the next): hls.js attached with the preloading limits (one segment), or the
 * original with preload="metadata"; `ready` once that segment is buffered or the metadata loaded.
 * On the click the playing limits apply and play() starts; the first presented frame
 * (requestVideoFrameCallback) and every 'waiting' after it are recorded.
 */
const HARNESS = `(() => {
  const b = (window.__bench = { waiting: 0, firstFrame: null, t0: null, error: null, level: null, ready: false, hls: null });
  const v = document.getElementById('v');
  v.addEventListener('waiting', () => { if (b.firstFrame !== null) b.waiting++; });
  v.addEventListener('error', () => { b.error = 'video error ' + (v.error && v.error.message); });
  const attachHls = (limits) => {
    const hls = (b.hls = new Hls(Object.assign({ autoStartLoad: false, startLevel: -1, capLevelToPlayerSize: true }, b.hlsConfig, limits)));
    hls.on(Hls.Events.MANIFEST_PARSED, () => { hls.autoLevelCapping = b.cap; hls.startLevel = b.startLevel; hls.startLoad(-1); });
    hls.on(Hls.Events.LEVEL_SWITCHED, (_e, d) => { b.level = d.level; });
    hls.on(Hls.Events.FRAG_BUFFERED, () => { b.ready = true; });
    hls.on(Hls.Events.ERROR, (_e, d) => { if (d.fatal) b.error = 'hls ' + d.type + ' ' + d.details; });
    hls.attachMedia(v);
    hls.loadSource(b.url);
  };
  b.prepare = () => {
    if (b.mode === 'hls') return attachHls(b.preloadLimits);
    v.preload = 'metadata';
    v.addEventListener('loadedmetadata', () => { b.ready = true; });
    v.src = b.url;
  };
  b.isReady = () => b.ready || (b.mode === 'hls' && v.buffered.length > 0);
  document.getElementById('play').addEventListener('click', () => {
    b.t0 = performance.now();
    v.requestVideoFrameCallback(() => { b.firstFrame = performance.now(); });
    if (b.mode === 'hls') {
      if (b.hls) Object.assign(b.hls.config, b.playingLimits);
      else attachHls(b.playingLimits);
    } else if (!v.src) {
      v.src = b.url;
    }
    v.play().catch((e) => { b.error = String(e); });
  });
})()`;

export interface PlaybackSample {
  /** Click to the first presented frame, ms. */
  firstFrameMs: number;
  /** 'waiting' events after the first frame, within the window. */
  stalls: number;
  /** Encoded bytes of /media/ responses received from the click to the window's end. */
  bytes: number;
  /** The same count at the first frame + 5 s and + 10 s (a member who swipes on). */
  bytesAt5: number;
  bytesAt10: number;
  /** Click to the end of preloading, ms (0 for a cold play). */
  preloadMs: number;
  /** Seconds of video played in the window. */
  played: number;
  level: number | null;
}

/** Levels of a master playlist in hls.js's order (ascending bandwidth). */
export function masterLevels(master: string): LevelInfo[] {
  const levels: LevelInfo[] = [];
  for (const line of master.split('\n')) {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) continue;
    const bw = Number(/BANDWIDTH=(\d+)/.exec(line)?.[1] ?? 0);
    const [w, h] = (/RESOLUTION=(\d+)x(\d+)/.exec(line) ?? []).slice(1).map(Number);
    levels.push({ width: w ?? 0, height: h ?? 0, bitrate: bw });
  }
  return levels.sort((a, b) => a.bitrate - b.bitrate);
}

/** Bytes of media responses on the wire, per request: the final count when finished, else the chunks so far. */
export function byteCounter(cdp: CDPSession): { total(): number } {
  const media = new Set<string>();
  const chunks = new Map<string, number>();
  const finished = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (new URL(e.request.url).pathname.startsWith('/media/')) media.add(e.requestId);
  });
  cdp.on('Network.dataReceived', (e) => {
    if (media.has(e.requestId)) chunks.set(e.requestId, (chunks.get(e.requestId) ?? 0) + e.encodedDataLength);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (media.has(e.requestId)) finished.set(e.requestId, e.encodedDataLength);
  });
  return { total: () => [...media].reduce((sum, id) => sum + Math.max(finished.get(id) ?? 0, chunks.get(id) ?? 0), 0) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PlayOptions {
  origin: string;
  mode: 'hls' | 'progressive';
  url: string;
  /** Seconds of playback after the first frame. */
  windowSeconds: number;
  hlsSource: string;
  levels: LevelInfo[];
  /**
   * Tap a card the feed has preloaded: hls.js with one segment buffered, or the original after its
   * metadata (preload="metadata"), both finished before the click. Otherwise a cold tap.
   */
  preloaded?: boolean;
}

/** A fresh phone-sized context on the app's origin, its cache off and the slow link on. */
export async function slowLinkPage(browser: Browser, origin: string): Promise<{ page: Page; cdp: CDPSession }> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: DPR, bypassCSP: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.goto(`${origin}/manifest.webmanifest`);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: LINK.latencyMs,
    downloadThroughput: LINK.downBitsPerSecond / 8,
    uploadThroughput: LINK.upBitsPerSecond / 8,
  });
  return { page, cdp };
}

/**
 * The hls.js settings of the feed's player for this page (client/features/feed/components/link-rule.ts):
 * start level and cap for the player's size and the link the page reports, the link's estimate.
 */
export async function hlsSetup(page: Page, levels: LevelInfo[], playerHeight: number) {
  const link = (await page.evaluate(
    '(c => c ? { downlink: c.downlink, effectiveType: c.effectiveType, saveData: c.saveData } : null)(navigator.connection)',
  )) as LinkHints | null;
  const plan = playerPlan(levels, { link: link ?? undefined, dataSaver: false, playerWidth: VIEWPORT.width * DPR, playerHeight: playerHeight * DPR });
  const hlsConfig = { capLevelToPlayerSize: plan.capToPlayerSize, ...(plan.estimate ? { abrEwmaDefaultEstimate: plan.estimate } : {}) };
  return {
    startLevel: plan.startLevel,
    cap: plan.cap,
    hlsConfig,
    preloadLimits: bufferLimits(true, link ?? undefined),
    playingLimits: bufferLimits(false, link ?? undefined),
    link,
  };
}

async function preparePage(browser: Browser, o: PlayOptions): Promise<{ page: Page; cdp: CDPSession }> {
  const { page, cdp } = await slowLinkPage(browser, o.origin);
  await page.setContent(PAGE);
  if (o.mode === 'hls') await page.addScriptTag({ content: o.hlsSource });
  await page.addScriptTag({ content: HARNESS });
  const setup = { mode: o.mode, url: o.url, ...(await hlsSetup(page, o.levels, VIEWPORT.height - 40)) };
  await page.evaluate(`Object.assign(window.__bench, ${JSON.stringify(setup)})`);
  return { page, cdp };
}

interface PageState {
  ready: boolean;
  t0: number | null;
  firstFrame: number | null;
  waiting: number;
  error: string | null;
  level: number | null;
  played: number;
}

const STATE = `(() => {
  const b = window.__bench;
  return { ready: b.isReady(), t0: b.t0, firstFrame: b.firstFrame, waiting: b.waiting, error: b.error, level: b.level, played: document.getElementById('v').currentTime };
})()`;

/** Polls the page until `done` holds, failing on a page error or after 90 s. */
async function until(page: Page, what: string, done: (s: PageState) => boolean): Promise<PageState> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const s = (await page.evaluate(STATE)) as PageState;
    if (s.error) throw new Error(`${what}: ${s.error}`);
    if (done(s)) return s;
    if (Date.now() > deadline) throw new Error(`${what}: not within 90 s`);
    await sleep(20);
  }
}

/**
 * One play on the emulated link: (preloaded: the feed's preload, finished) click, first frame, then
 * `windowSeconds` of playback. Bytes count from the click.
 */
export async function playOnce(browser: Browser, o: PlayOptions): Promise<PlaybackSample> {
  const { page, cdp } = await preparePage(browser, o);
  try {
    let preloadMs = 0;
    if (o.preloaded) {
      const t = Date.now();
      await page.evaluate('window.__bench.prepare()');
      await until(page, `${o.mode} preload`, (s) => s.ready);
      preloadMs = Date.now() - t;
    }
    const bytes = byteCounter(cdp);
    await page.click('#play');
    let s = await until(page, `${o.mode} first frame`, (x) => x.firstFrame !== null);
    const firstFrameMs = s.firstFrame! - s.t0!;
    // Checkpoints counted from the first frame as seen here, so a slow poll does not shift them.
    const frameSeen = Date.now();
    const after = (seconds: number) => sleep(Math.max(0, frameSeen + seconds * 1000 - Date.now()));
    const checkpoints: number[] = [];
    for (const at of [5, 10].filter((x) => x < o.windowSeconds)) {
      await after(at);
      checkpoints.push(bytes.total());
    }
    await after(o.windowSeconds);
    s = (await page.evaluate(STATE)) as PageState;
    const total = bytes.total();
    if (s.error) throw new Error(`${o.mode}: ${s.error}`);
    return {
      firstFrameMs,
      stalls: s.waiting,
      bytes: total,
      bytesAt5: checkpoints[0] ?? total,
      bytesAt10: checkpoints[1] ?? total,
      played: s.played,
      level: s.level,
      preloadMs,
    };
  } finally {
    await page.context().close();
  }
}

export function hlsJsSource(): string {
  return readFileSync(join(PROJECT_ROOT, 'node_modules/hls.js/dist/hls.min.js'), 'utf8');
}
