import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hasChromium, launchChromium } from '../helpers/browser';
import { ratioRow, round, unavailable, type BenchRow } from './lib/result';
import { interleaved } from './lib/load';
import { median } from './lib/stats';
import type { BenchContext } from './lib/context';
import { installMedia, ladderOf, sourceClip, type MediaTools } from './media-fixtures';
import { PLAYING_BUFFER_SECONDS } from '#client/features/feed/components/hls-levels';
import { SLOW_LINK_BUFFER_SECONDS } from '#client/features/feed/components/link-rule';
import { hlsJsSource, LINK, masterLevels, playOnce, type PlaybackSample } from './media-player-page';
import { swipeOnce, viewerRows, VIEWER_ROWS } from './media-viewer-swipe';

export const ROWS = {
  tap: { name: 'Media: first frame after tapping a preloaded card, HLS vs original', unit: 'ms', target: '<= 0.5x and < 1000 ms' },
  firstFrame: { name: 'Media: time to first frame (cold tap), HLS vs original', unit: 'ms', target: '<= 0.5x and <= 1000 ms' },
  stalls: { name: 'Media: stalls in 20 s of playback', unit: 'waiting events', target: 'ours 0' },
  bytes: { name: 'Media: bytes fetched in those 20 s', unit: 'KB', target: '<= 0.3x' },
  swiped: { name: 'Media: bytes for a video watched 5 s and swiped away (cold tap), HLS vs original', unit: 'KB', target: 'report' },
} as const;

export function playbackUnavailable(why: string): BenchRow[] {
  return [...Object.values(ROWS), ...Object.values(VIEWER_ROWS)].map((r) => unavailable(r.name, r.unit, r.target, why));
}

const SOURCE_SECONDS = 25;
const WINDOW_SECONDS = 20;
/** Playback after a preloaded tap: only long enough to see whether it stalls at once. */
const TAP_WINDOW_SECONDS = 4;

/** Ladder and original under DATA_DIR/media, in a folder of the viewer's, served by the app's /media route. */
async function install(
  ctx: BenchContext,
  tools: MediaTools,
): Promise<{ hls: string; original: string; levels: ReturnType<typeof masterLevels>; mbps: number }> {
  const source = await sourceClip(tools.ffmpeg, SOURCE_SECONDS);
  const ladder = await ladderOf(tools, source, ctx.log);
  const base = `${ctx.viewerId}/bench-media-${Date.now()}`;
  installMedia(ctx.dataDir, ladder, `${base}/ladder`);
  installMedia(ctx.dataDir, source, `${base}/original.mp4`);
  const master = readFileSync(join(ladder, 'master.m3u8'), 'utf8');
  const mbps = (statSync(source).size * 8) / SOURCE_SECONDS / 1e6;
  return { hls: `/media/${base}/ladder/master.m3u8`, original: `/media/${base}/original.mp4`, levels: masterLevels(master), mbps };
}

const kb = (n: number) => Math.round(n / 1024);
// After a preloaded tap the original's bytes go on the request made before it, which the counter
// (new requests from the click) does not see: bytes are logged for cold plays only.
const fmtSample = (s: PlaybackSample) =>
  (s.preloadMs ? `preloaded in ${s.preloadMs} ms, ` : '') +
  `first frame ${Math.round(s.firstFrameMs)} ms, ${s.stalls} stalls, ` +
  (s.preloadMs ? '' : `${kb(s.bytesAt5)}/${kb(s.bytesAt10)}/${kb(s.bytes)} KB at 5/10/${WINDOW_SECONDS} s, `) +
  `played ${s.played.toFixed(1)} s, level ${s.level ?? '-'}`;

/**
 * Rows 9-11 (docs/benchmarks.md) on an emulated 1.6 Mbit/s, 150 ms link (cache off), HLS via hls.js
 * (configured like the feed's player) vs the same source's original played progressively:
 * - the feed's real tap: the card was preloaded (hls.js with one segment buffered, or the original
 *   with preload="metadata" after its metadata), then tapped;
 * - a cold tap (nothing loaded before), with its stalls and bytes over 20 s of playback.
 */
export async function playbackRows(ctx: BenchContext, tools: MediaTools): Promise<BenchRow[]> {
  if (!hasChromium) return playbackUnavailable('no Chromium (set CHROMIUM_PATH)');
  const media = await install(ctx, tools);
  ctx.log(`media: original ${media.mbps.toFixed(1)} Mbit/s; ladder ${media.levels.map((l) => `${l.height}p ${Math.round(l.bitrate / 1000)}k`).join(', ')}`);
  const hlsSource = hlsJsSource();
  const browser = await launchChromium();
  try {
    const play = (mode: 'hls' | 'progressive', preloaded: boolean) => async () => {
      const url = `${ctx.server.url}${mode === 'hls' ? media.hls : media.original}`;
      const windowSeconds = preloaded ? TAP_WINDOW_SECONDS : WINDOW_SECONDS;
      const s = await playOnce(browser, { origin: ctx.server.url, mode, url, windowSeconds, hlsSource, levels: media.levels, preloaded });
      ctx.log(`media ${preloaded ? 'tap ' : 'cold '}${mode === 'hls' ? 'hls ' : 'orig'}: ${fmtSample(s)}`);
      return s;
    };
    // A preloaded tap is a few seconds: warm-up as usual.
    const tap = await interleaved(ctx.rounds, play('hls', true), play('progressive', true), true);
    // Each cold play is ~25 s: the quick run keeps its two rounds and skips the warm-up.
    const cold = await interleaved(ctx.rounds, play('hls', false), play('progressive', false), !ctx.quick);
    // The viewer: one video watched 5 s while the next preloads, then a swipe to it (the same media twice).
    const swipe = (mode: 'hls' | 'progressive') => async () => {
      const url = `${ctx.server.url}${mode === 'hls' ? media.hls : media.original}`;
      const s = await swipeOnce(browser, { origin: ctx.server.url, mode, urls: [url, url], hlsSource, levels: media.levels });
      ctx.log(`media swipe ${mode === 'hls' ? 'hls ' : 'orig'}: next frame ${Math.round(s.swipeMs)} ms after the swipe, ${kb(s.bytes)} KB by then`);
      return s;
    };
    const viewer = await interleaved(ctx.rounds, swipe('hls'), swipe('progressive'), false);
    return [tapRow(tap.ours, tap.base), ...rows(cold.ours, cold.base, media.mbps), ...viewerRows(viewer.ours, viewer.base)];
  } finally {
    await browser.close();
  }
}

const LINK_NOTE = `${LINK.downBitsPerSecond / 1e6} Mbit/s, ${LINK.latencyMs} ms RTT, cache off`;

function tapRow(ours: PlaybackSample[], base: PlaybackSample[]): BenchRow {
  const preload = (xs: PlaybackSample[]) => Math.round(median(xs.map((x) => x.preloadMs)));
  const stalls = (xs: PlaybackSample[]) => Math.max(...xs.map((x) => x.stalls));
  return ratioRow(
    {
      name: ROWS.tap.name,
      unit: ROWS.tap.unit,
      direction: 'lower',
      targetRatio: 0.5,
      absolute: { max: 1000, label: '< 1000 ms' },
      notes:
        `${LINK_NOTE}; before the tap HLS buffered its first segment (feed preload limits, ${preload(ours)} ms), ` +
        `the original its metadata (preload="metadata", ${preload(base)} ms); click to requestVideoFrameCallback; ` +
        `max stalls in the ${TAP_WINDOW_SECONDS} s after: ${stalls(ours)} vs ${stalls(base)}`,
    },
    ours.map((x) => x.firstFrameMs),
    base.map((x) => x.firstFrameMs),
  );
}

function rows(ours: PlaybackSample[], base: PlaybackSample[], mbps: number): BenchRow[] {
  const played = (xs: PlaybackSample[]) => median(xs.map((x) => x.played)).toFixed(1);
  const first = ratioRow(
    {
      name: ROWS.firstFrame.name,
      unit: ROWS.firstFrame.unit,
      direction: 'lower',
      targetRatio: 0.5,
      absolute: { max: 1000, label: '<= 1000 ms' },
      notes: `${LINK_NOTE}; nothing loaded before the tap (the tap row above is the feed's); original 1080x1920 H.264 ${mbps.toFixed(1)} Mbit/s +faststart; click to requestVideoFrameCallback`,
    },
    ours.map((x) => x.firstFrameMs),
    base.map((x) => x.firstFrameMs),
  );
  const stalls = ratioRow(
    {
      name: ROWS.stalls.name,
      unit: ROWS.stalls.unit,
      direction: 'lower',
      notes: `after the first frame; played ${played(ours)} s (HLS) vs ${played(base)} s (original)`,
    },
    ours.map((x) => x.stalls),
    base.map((x) => x.stalls),
  );
  // Target: no stall on our side in any round (the ratio to the original is only reported).
  stalls.target = ROWS.stalls.target;
  stalls.pass = ours.every((x) => x.stalls === 0);
  stalls.notes += `; max ours ${Math.max(...ours.map((x) => x.stalls))}`;
  const bytes = ratioRow(
    {
      name: ROWS.bytes.name,
      unit: ROWS.bytes.unit,
      direction: 'lower',
      targetRatio: 0.3,
      notes:
        `encoded bytes of /media/ responses, cold click to first frame + ${WINDOW_SECONDS} s, HLS buffering ${SLOW_LINK_BUFFER_SECONDS} s ahead on this slow link (${PLAYING_BUFFER_SECONDS} s on a fast one); ` +
        `KB per second played: ${perPlayed(ours)} vs ${perPlayed(base)}; at first frame + 5 s / + 10 s: ${at(ours, 'bytesAt5')} / ${at(ours, 'bytesAt10')} KB vs ` +
        `${at(base, 'bytesAt5')} / ${at(base, 'bytesAt10')} KB`,
    },
    ours.map((x) => x.bytes / 1024),
    base.map((x) => x.bytes / 1024),
  );
  // A member who swipes on after 5 s: what was fetched by then is all that video costs.
  const swiped = ratioRow(
    {
      name: ROWS.swiped.name,
      unit: ROWS.swiped.unit,
      direction: 'lower',
      notes: `encoded bytes of /media/ responses from the cold click to the first frame + 5 s (the rows above, cut there), nothing preloaded for a next video`,
    },
    ours.map((x) => x.bytesAt5 / 1024),
    base.map((x) => x.bytesAt5 / 1024),
  );
  return [first, stalls, bytes, swiped];
}

const perPlayed = (xs: PlaybackSample[]) => round(median(xs.map((x) => x.bytes / 1024 / Math.max(0.1, x.played))));
const at = (xs: PlaybackSample[], k: 'bytesAt5' | 'bytesAt10') => Math.round(median(xs.map((x) => x[k] / 1024)));
