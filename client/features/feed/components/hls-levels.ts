import { HLS_SEGMENT_SECONDS, LOWEST_RUNG_SHORT_SIDE } from '#sync/protocol/media';

/** A rendition as hls.js describes it (the fields the choice needs). */
export interface LevelInfo {
  width: number;
  height: number;
  bitrate: number;
}

/** Data saver's ceiling: the 360p rendition (its short side). */
export const DATA_SAVER_SHORT_SIDE = LOWEST_RUNG_SHORT_SIDE;
/** A preloading card buffers about one segment. */
export const SEGMENT_SECONDS = HLS_SEGMENT_SECONDS;
/**
 * Seconds of video the feed's player buffers ahead once playing. hls.js's defaults (30 s, and up
 * to 600 s while under its 60 MB size limit: 570 s at 840 kbit/s) fetch a whole short clip at
 * once, paid for by a member who swipes on after a few seconds; 5 segments of 2 s cover a dip in
 * the link without a stall (docs/benchmarks.md, "Media").
 */
export const PLAYING_BUFFER_SECONDS = 10;
/** Share of the measured bandwidth a rendition may use, so the first segment arrives before it is needed. */
const BANDWIDTH_HEADROOM = 0.7;

const shortSide = (l: LevelInfo) => Math.min(l.width, l.height);

/**
 * hls.js's first bandwidth guess in bit/s, from the Network Information API's downlink (Mbit/s)
 * when the browser has it; undefined keeps hls.js's default.
 */
export function bandwidthEstimate(downlinkMbps: number | undefined): number | undefined {
  return downlinkMbps && downlinkMbps > 0 ? Math.round(downlinkMbps * 1_000_000) : undefined;
}

/** The highest rendition data saver allows (360p by short side); 0 when none is that small. */
export function dataSaverCap(levels: readonly LevelInfo[]): number {
  let cap = 0;
  levels.forEach((l, i) => {
    if (l.width > 0 && shortSide(l) <= DATA_SAVER_SHORT_SIDE && shortSide(l) >= shortSide(levels[cap]!)) cap = i;
  });
  return cap;
}

export interface StartContext {
  /** bit/s; undefined when unknown. */
  bandwidth: number | undefined;
  /** The player's box in device pixels. */
  playerWidth: number;
  playerHeight: number;
  /** Highest level allowed (data saver), or -1. */
  cap: number;
}

/**
 * The rendition to start with: the smallest one that covers the player (a larger one is wasted on
 * a phone, as hls.js's capLevelToPlayerSize does later), lowered until it fits the bandwidth.
 * Levels are in hls.js's order (ascending bitrate).
 */
export function chooseStartLevel(levels: readonly LevelInfo[], ctx: StartContext): number {
  if (levels.length === 0) return -1;
  let top = levels.length - 1;
  if (ctx.cap >= 0) top = Math.min(top, ctx.cap);
  const covering = levels.findIndex((l) => l.width >= ctx.playerWidth && l.height >= ctx.playerHeight);
  if (covering >= 0) top = Math.min(top, covering);
  if (ctx.bandwidth === undefined) return top;
  for (let i = top; i > 0; i--) {
    if (levels[i]!.bitrate <= ctx.bandwidth * BANDWIDTH_HEADROOM) return i;
  }
  return 0;
}

/**
 * The feed player's hls.js buffer limits. Preloading asks for less than one segment: hls.js fetches
 * a segment while the buffer is below the limit, so it stops after the first one.
 */
export function feedBufferLimits(preloading: boolean): { maxBufferLength: number; maxMaxBufferLength: number } {
  const seconds = preloading ? SEGMENT_SECONDS / 2 : PLAYING_BUFFER_SECONDS;
  return { maxBufferLength: seconds, maxMaxBufferLength: seconds };
}
