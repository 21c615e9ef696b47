import { FIRST_SEGMENT_SECONDS, HLS_SEGMENT_SECONDS } from '#sync/protocol/media';
import { bandwidthEstimate, chooseStartLevel, dataSaverCap, feedBufferLimits, type LevelInfo } from './hls-levels';

/**
 * The player's rule for slow or metered links (docs/decisions/0027-cold-start.md): start on the
 * lowest rendition (the starter rung), stay on what a share of the link pays for, and buffer a few
 * segments rather than 10 s. A fast link, or a browser that says nothing, keeps the usual choice.
 */

/** What the Network Information API says, where the browser has it (Chromium; not Safari or Firefox). */
export interface LinkHints {
  /** Mbit/s, Chromium's estimate (rounded, at most 10). */
  downlink?: number | undefined;
  effectiveType?: string | undefined;
  /** The browser's or the system's data saver: a metered link. */
  saveData?: boolean | undefined;
}

/** Below this downlink a link is slow: 1.6 Mbit/s (the bench's phone) is, a 5 Mbit/s one is not. */
export const SLOW_LINK_MBPS = 3;
const SLOW_TYPES = new Set(['slow-2g', '2g', '3g']);
/**
 * Share of a slow link the video may use. At 1.6 Mbit/s that is 0.56 Mbit/s: the starter rung
 * (0.36 Mbit/s) and not 360p (about 1 Mbit/s), so 20 s of playback cost about a quarter of what
 * the original, which fills the link, costs.
 */
export const SLOW_LINK_SHARE = 0.35;
/** Forward buffer on a slow link: three segments, which the starter rung fetches four times faster than it plays at 1.6 Mbit/s. */
export const SLOW_LINK_BUFFER_SECONDS = 3 * HLS_SEGMENT_SECONDS;

export function isSlowLink(link: LinkHints | undefined): boolean {
  if (!link) return false;
  if (link.saveData) return true;
  if (link.effectiveType && SLOW_TYPES.has(link.effectiveType)) return true;
  return link.downlink !== undefined && link.downlink > 0 && link.downlink < SLOW_LINK_MBPS;
}

/** The highest level a slow link affords (SLOW_LINK_SHARE of its downlink); the lowest when none does or the downlink is unknown. */
export function slowLinkCap(levels: readonly LevelInfo[], downlinkMbps: number | undefined): number {
  const budget = (downlinkMbps ?? 0) * 1_000_000 * SLOW_LINK_SHARE;
  let cap = 0;
  levels.forEach((l, i) => {
    if (l.bitrate <= budget) cap = i;
  });
  return cap;
}

/** hls.js's autoLevelCapping: the lower of data saver's cap and a slow link's, or -1 for none. */
export function levelCap(levels: readonly LevelInfo[], dataSaver: boolean, link: LinkHints | undefined): number {
  const caps = [...(dataSaver ? [dataSaverCap(levels)] : []), ...(isSlowLink(link) ? [slowLinkCap(levels, link?.downlink)] : [])];
  return caps.length > 0 ? Math.min(...caps) : -1;
}

export interface PlayerPlan {
  startLevel: number;
  /** autoLevelCapping, or -1. */
  cap: number;
  /**
   * hls.js's player-size capping: off whenever a cap of ours holds, since it rewrites
   * autoLevelCapping every second (node_modules/hls.js/src/controller/cap-level-controller.ts).
   */
  capToPlayerSize: boolean;
  /** hls.js's first bandwidth guess (abrEwmaDefaultEstimate), bit/s. */
  estimate: number | undefined;
}

export interface PlanContext {
  link: LinkHints | undefined;
  dataSaver: boolean;
  /** The player's box in device pixels. */
  playerWidth: number;
  playerHeight: number;
}

/** Where hls.js starts and what it may climb to, once the master playlist's levels are known. */
export function playerPlan(levels: readonly LevelInfo[], ctx: PlanContext): PlayerPlan {
  const estimate = bandwidthEstimate(ctx.link?.downlink);
  const cap = levelCap(levels, ctx.dataSaver, ctx.link);
  if (isSlowLink(ctx.link)) return { startLevel: levels.length > 0 ? 0 : -1, cap, capToPlayerSize: false, estimate };
  const startLevel = chooseStartLevel(levels, { bandwidth: estimate, playerWidth: ctx.playerWidth, playerHeight: ctx.playerHeight, cap });
  return { startLevel, cap, capToPlayerSize: !ctx.dataSaver, estimate };
}

/**
 * hls.js's buffer limits. A slow link buffers SLOW_LINK_BUFFER_SECONDS once playing, and a
 * preloading card half the starter's 1 s first segment, so it stops after that segment.
 */
export function bufferLimits(preloading: boolean, link: LinkHints | undefined): { maxBufferLength: number; maxMaxBufferLength: number } {
  if (!isSlowLink(link)) return feedBufferLimits(preloading);
  const seconds = preloading ? FIRST_SEGMENT_SECONDS / 2 : SLOW_LINK_BUFFER_SECONDS;
  return { maxBufferLength: seconds, maxMaxBufferLength: seconds };
}

/**
 * The hint corrected by hls.js's measurement (bandwidthEstimate, bit/s): once segments have been
 * timed, their throughput stands for the downlink and the effective type. Data saver stays: it is
 * the member's or the system's choice, not a guess.
 */
export function measuredLink(hint: LinkHints | undefined, measuredBps: number | undefined): LinkHints | undefined {
  if (!measuredBps || measuredBps <= 0 || !Number.isFinite(measuredBps)) return hint;
  return { downlink: measuredBps / 1_000_000, saveData: hint?.saveData };
}

/** navigator.connection's hints, or undefined where the browser has no Network Information API. */
export function readLink(nav: Navigator): LinkHints | undefined {
  const c = (nav as Navigator & { connection?: LinkHints }).connection;
  return c ? { downlink: c.downlink, effectiveType: c.effectiveType, saveData: c.saveData } : undefined;
}
