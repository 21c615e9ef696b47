import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hasChromium, launchChromium } from '../helpers/browser';
import { ratioRow, round, unavailable, type BenchRow } from './lib/result';
import { interleaved } from './lib/load';
import { median } from './lib/stats';
import type { BenchContext } from './lib/context';
import { installMedia, ladderOf, sourceClip, type MediaTools } from './media-fixtures';
import { hlsJsSource, LINK, masterLevels, playOnce, type PlaybackSample } from './media-player-page';

const ROWS = {
  firstFrame: { name: 'Media: time to first frame, HLS vs original', unit: 'ms', target: '<= 0.5x and < 1000 ms' },
  stalls: { name: 'Media: stalls in 20 s of playback', unit: 'waiting events', target: 'ours 0' },
  bytes: { name: 'Media: bytes fetched in those 20 s', unit: 'KB', target: '<= 0.3x' },
} as const;

export function playbackUnavailable(why: string): BenchRow[] {
  return Object.values(ROWS).map((r) => unavailable(r.name, r.unit, r.target, why));
}

const SOURCE_SECONDS = 25;
const WINDOW_SECONDS = 20;

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

const fmtSample = (s: PlaybackSample) =>
  `first frame ${Math.round(s.firstFrameMs)} ms, ${s.stalls} stalls, ${Math.round(s.bytes / 1024)} KB, played ${s.played.toFixed(1)} s, level ${s.level ?? '-'}`;

/**
 * Rows 1-3: a cold play after a tap on an emulated 1.6 Mbit/s, 150 ms link (cache off), HLS via
 * hls.js (configured like the feed's player) vs the same source's original played progressively.
 */
export async function playbackRows(ctx: BenchContext, tools: MediaTools): Promise<BenchRow[]> {
  if (!hasChromium) return playbackUnavailable('no Chromium (set CHROMIUM_PATH)');
  const media = await install(ctx, tools);
  ctx.log(`media: original ${media.mbps.toFixed(1)} Mbit/s; ladder ${media.levels.map((l) => `${l.height}p ${Math.round(l.bitrate / 1000)}k`).join(', ')}`);
  const hlsSource = hlsJsSource();
  const browser = await launchChromium();
  try {
    const play = (mode: 'hls' | 'progressive') => async () => {
      const url = `${ctx.server.url}${mode === 'hls' ? media.hls : media.original}`;
      const s = await playOnce(browser, { origin: ctx.server.url, mode, url, windowSeconds: WINDOW_SECONDS, hlsSource, levels: media.levels });
      ctx.log(`media ${mode === 'hls' ? 'hls ' : 'orig'}: ${fmtSample(s)}`);
      return s;
    };
    // Each play is ~25 s: the quick run keeps its two rounds and skips the warm-up.
    const s = await interleaved(ctx.rounds, play('hls'), play('progressive'), !ctx.quick);
    return rows(s.ours, s.base, media.mbps);
  } finally {
    await browser.close();
  }
}

function rows(ours: PlaybackSample[], base: PlaybackSample[], mbps: number): BenchRow[] {
  const link = `${LINK.downBitsPerSecond / 1e6} Mbit/s, ${LINK.latencyMs} ms RTT, cache off`;
  const played = (xs: PlaybackSample[]) => median(xs.map((x) => x.played)).toFixed(1);
  const first = ratioRow(
    {
      name: ROWS.firstFrame.name,
      unit: ROWS.firstFrame.unit,
      direction: 'lower',
      targetRatio: 0.5,
      absolute: { max: 1000, label: '< 1000 ms' },
      notes: `${link}; original 1080x1920 H.264 ${mbps.toFixed(1)} Mbit/s +faststart; click to requestVideoFrameCallback`,
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
      notes: `encoded bytes of /media/ responses, click to first frame + ${WINDOW_SECONDS} s; KB per second played: ${perPlayed(ours)} vs ${perPlayed(base)}`,
    },
    ours.map((x) => x.bytes / 1024),
    base.map((x) => x.bytes / 1024),
  );
  return [first, stalls, bytes];
}

const perPlayed = (xs: PlaybackSample[]) => round(median(xs.map((x) => x.bytes / 1024 / Math.max(0.1, x.played))));
