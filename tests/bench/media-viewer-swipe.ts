import type { Browser, Page } from 'playwright-core';
import type { LevelInfo } from '#client/features/feed/components/hls-levels';
import { ratioRow, type BenchRow } from './lib/result';
import { byteCounter, hlsSetup, LINK, sleep, slowLinkPage } from './media-player-page';

export const VIEWER_ROWS = {
  swipe: { name: 'Viewer: swipe to the first frame of the next video, HLS vs original', unit: 'ms', target: '< 300 ms' },
  bytes: { name: 'Viewer: bytes per video watched 5 s and swiped, HLS vs original', unit: 'KB', target: 'report' },
} as const;

/** Seconds the first video plays before the swipe. */
const WATCH_SECONDS = 5;

// Two full-screen slides in a scroll-snap list, as client/features/feed/viewer/viewer.css lays them out.
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>viewer bench</title></head>
<body style="margin:0;background:#000">
<div id="sc" style="height:100vh;overflow-y:auto;scroll-snap-type:y mandatory">
<video muted playsinline preload="none" style="display:block;width:100%;height:100vh;scroll-snap-align:start;scroll-snap-stop:always"></video>
<video muted playsinline preload="none" style="display:block;width:100%;height:100vh;scroll-snap-align:start;scroll-snap-stop:always"></video>
</div></body></html>`;

/**
 * The viewer's side (client/features/feed/viewer/ViewerPlayer.tsx): the video in view plays with the
 * playing limits, the next one attaches with the preloading limits (one segment) or, for the
 * original, preload="metadata"; once the list has scrolled more than half way (useSlideInView.ts)
 * the first pauses, the next gets the playing limits and play(). Its first presented frame
 * (requestVideoFrameCallback) ends the swipe.
 */
const HARNESS = `(() => {
  const b = (window.__viewer = { first: null, swiped: null, next: null, error: null });
  const sc = document.getElementById('sc');
  const [v1, v2] = document.querySelectorAll('video');
  const attach = (v, url, limits) => {
    v.addEventListener('error', () => { b.error = 'video error ' + (v.error && v.error.message); });
    if (b.mode !== 'hls') { v.preload = limits === b.preloadLimits ? 'metadata' : 'auto'; v.src = url; return null; }
    const hls = new Hls(Object.assign({ autoStartLoad: false, startLevel: -1, capLevelToPlayerSize: true }, b.hlsConfig, limits));
    hls.on(Hls.Events.MANIFEST_PARSED, () => { hls.autoLevelCapping = b.cap; hls.startLevel = b.startLevel; hls.startLoad(-1); });
    hls.on(Hls.Events.ERROR, (_e, d) => { if (d.fatal) b.error = 'hls ' + d.type + ' ' + d.details; });
    hls.attachMedia(v);
    hls.loadSource(url);
    return hls;
  };
  b.start = () => {
    attach(v1, b.urls[0], b.playingLimits);
    v1.requestVideoFrameCallback(() => { b.first = performance.now(); });
    v1.play().catch((e) => { b.error = String(e); });
    b.nextHls = attach(v2, b.urls[1], b.preloadLimits);
  };
  b.swipe = () => {
    b.swiped = performance.now();
    const onScroll = () => {
      if (Math.round(sc.scrollTop / sc.clientHeight) !== 1) return;
      sc.removeEventListener('scroll', onScroll);
      v1.pause();
      if (b.nextHls) Object.assign(b.nextHls.config, b.playingLimits);
      v2.requestVideoFrameCallback(() => { b.next = performance.now(); });
      v2.play().catch((e) => { b.error = String(e); });
    };
    sc.addEventListener('scroll', onScroll);
    sc.scrollTo({ top: sc.clientHeight, behavior: 'smooth' });
  };
})()`;

export interface SwipeSample {
  /** The swipe's start to the next video's first frame, ms. */
  swipeMs: number;
  /** Bytes of /media/ responses from the first video's start to the swipe: its 5 s and the next one's preload. */
  bytes: number;
}

interface ViewerState {
  first: number | null;
  swiped: number | null;
  next: number | null;
  error: string | null;
}

// The page's object also holds hls.js, which does not serialize: only the figures come back.
const STATE = '(({ first, swiped, next, error }) => ({ first, swiped, next, error }))(window.__viewer)';

async function until(page: Page, what: string, done: (s: ViewerState) => boolean): Promise<ViewerState> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const s = (await page.evaluate(STATE)) as ViewerState;
    if (s.error) throw new Error(`viewer ${what}: ${s.error}`);
    if (done(s)) return s;
    if (Date.now() > deadline) throw new Error(`viewer ${what}: not within 90 s`);
    await sleep(20);
  }
}

export interface SwipeOptions {
  origin: string;
  mode: 'hls' | 'progressive';
  /** The two videos' URLs (HLS masters, or originals). */
  urls: [string, string];
  hlsSource: string;
  levels: LevelInfo[];
}

/** One viewer visit on the emulated link: the first video plays 5 s (the next preloading meanwhile), then a swipe. */
export async function swipeOnce(browser: Browser, o: SwipeOptions): Promise<SwipeSample> {
  const { page, cdp } = await slowLinkPage(browser, o.origin);
  try {
    await page.setContent(PAGE);
    if (o.mode === 'hls') await page.addScriptTag({ content: o.hlsSource });
    await page.addScriptTag({ content: HARNESS });
    const setup = { mode: o.mode, urls: o.urls, ...(await hlsSetup(page, o.levels, 640)) };
    await page.evaluate(`Object.assign(window.__viewer, ${JSON.stringify(setup)})`);
    const bytes = byteCounter(cdp);
    await page.evaluate('window.__viewer.start()');
    await until(page, 'first frame', (s) => s.first !== null);
    await sleep(WATCH_SECONDS * 1000);
    const watched = bytes.total();
    await page.evaluate('window.__viewer.swipe()');
    const s = await until(page, 'next frame', (x) => x.next !== null);
    return { swipeMs: s.next! - s.swiped!, bytes: watched };
  } finally {
    await page.context().close();
  }
}

/** The viewer's two rows (docs/benchmarks.md, "Media rows (9-13): how they are measured"). */
export function viewerRows(ours: SwipeSample[], base: SwipeSample[]): BenchRow[] {
  const link = `${LINK.downBitsPerSecond / 1e6} Mbit/s, ${LINK.latencyMs} ms RTT, cache off`;
  return [
    ratioRow(
      {
        name: VIEWER_ROWS.swipe.name,
        unit: VIEWER_ROWS.swipe.unit,
        direction: 'lower',
        absolute: { max: 300, label: '< 300 ms' },
        notes: `${link}; the first video played ${WATCH_SECONDS} s while the next preloaded (one HLS segment, or the original's metadata); scrollTo (smooth) to requestVideoFrameCallback of the next`,
      },
      ours.map((x) => x.swipeMs),
      base.map((x) => x.swipeMs),
    ),
    ratioRow(
      {
        name: VIEWER_ROWS.bytes.name,
        unit: VIEWER_ROWS.bytes.unit,
        direction: 'lower',
        notes: `encoded bytes of /media/ responses from the first video's start to the swipe: its ${WATCH_SECONDS} s and the next video's preload`,
      },
      ours.map((x) => x.bytes / 1024),
      base.map((x) => x.bytes / 1024),
    ),
  ];
}
