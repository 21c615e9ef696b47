import { describe, expect, it } from 'vitest';
import type { LevelInfo } from './hls-levels';
import { bufferLimits, isSlowLink, levelCap, measuredLink, playerPlan, slowLinkCap } from './link-rule';

// The server's master for a vertical 1080x1920 upload: the starter rung, then the ladder (hls.js's order).
const levels: LevelInfo[] = [
  { width: 240, height: 426, bitrate: 520_000 },
  { width: 360, height: 640, bitrate: 1_100_000 },
  { width: 540, height: 960, bitrate: 2_200_000 },
  { width: 720, height: 1280, bitrate: 3_700_000 },
  { width: 1080, height: 1920, bitrate: 6_900_000 },
];
const phone = { dataSaver: false, playerWidth: 720, playerHeight: 1200 };

describe('the slow-link rule', () => {
  it('calls a link slow on a low downlink, a slow effective type or data saver, and fast or unknown otherwise', () => {
    expect(isSlowLink({ downlink: 1.6, effectiveType: '4g' })).toBe(true);
    expect(isSlowLink({ downlink: 10, effectiveType: '3g' })).toBe(true);
    expect(isSlowLink({ downlink: 10, saveData: true })).toBe(true);
    expect(isSlowLink({ downlink: 5, effectiveType: '4g' })).toBe(false);
    expect(isSlowLink({ downlink: 0 })).toBe(false);
    expect(isSlowLink(undefined)).toBe(false);
  });

  it('caps a slow link at what 35 % of it pays for, never below the lowest level', () => {
    expect(slowLinkCap(levels, 1.6)).toBe(0);
    expect(slowLinkCap(levels, 2.9)).toBe(0);
    expect(slowLinkCap(levels, 3.2)).toBe(1);
    expect(slowLinkCap(levels, 0.3)).toBe(0);
    expect(slowLinkCap(levels, undefined)).toBe(0);
  });

  it('takes the lower of data saver and the slow link, and none on a fast link without data saver', () => {
    expect(levelCap(levels, false, { downlink: 10 })).toBe(-1);
    expect(levelCap(levels, true, { downlink: 10 })).toBe(1);
    expect(levelCap(levels, true, { downlink: 1.6 })).toBe(0);
    expect(levelCap(levels, false, { downlink: 1.6 })).toBe(0);
  });

  it('starts a slow link on the starter with its own cap, a fast one as before (fitted to the player, climbing freely)', () => {
    expect(playerPlan(levels, { ...phone, link: { downlink: 1.6 } })).toEqual({ startLevel: 0, cap: 0, capToPlayerSize: false, estimate: 1_600_000 });
    expect(playerPlan(levels, { ...phone, link: { downlink: 10 } })).toEqual({ startLevel: 3, cap: -1, capToPlayerSize: true, estimate: 10_000_000 });
    // Unknown link (Safari, Firefox): the player's size alone.
    expect(playerPlan(levels, { ...phone, link: undefined })).toMatchObject({ startLevel: 3, cap: -1, capToPlayerSize: true });
    expect(playerPlan(levels, { ...phone, dataSaver: true, link: { downlink: 10 } })).toMatchObject({ startLevel: 1, cap: 1, capToPlayerSize: false });
  });

  it('buffers three segments ahead on a slow link and half the 1 s first segment while preloading', () => {
    expect(bufferLimits(false, { downlink: 1.6 })).toEqual({ maxBufferLength: 6, maxMaxBufferLength: 6 });
    expect(bufferLimits(true, { downlink: 1.6 })).toEqual({ maxBufferLength: 0.5, maxMaxBufferLength: 0.5 });
    expect(bufferLimits(false, { downlink: 10 })).toEqual({ maxBufferLength: 10, maxMaxBufferLength: 10 });
    expect(bufferLimits(true, undefined)).toEqual({ maxBufferLength: 1, maxMaxBufferLength: 1 });
  });

  it("lets hls.js's measurement overrule the hint, but never the member's data saver", () => {
    expect(isSlowLink(measuredLink({ downlink: 1.45, effectiveType: '3g' }, 40_000_000))).toBe(false);
    expect(isSlowLink(measuredLink({ downlink: 10 }, 1_200_000))).toBe(true);
    expect(isSlowLink(measuredLink({ downlink: 10, saveData: true }, 40_000_000))).toBe(true);
    expect(measuredLink({ downlink: 1.6 }, undefined)).toEqual({ downlink: 1.6 });
    expect(measuredLink({ downlink: 1.6 }, Number.NaN)).toEqual({ downlink: 1.6 });
  });
});
