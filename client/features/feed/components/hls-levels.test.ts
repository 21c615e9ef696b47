import { describe, expect, it } from 'vitest';
import { bandwidthEstimate, chooseStartLevel, dataSaverCap, type LevelInfo } from './hls-levels';

// The server's ladder for a vertical video, named by short side (ascending, as hls.js orders it).
const ladder: LevelInfo[] = [
  { width: 360, height: 640, bitrate: 800_000 },
  { width: 540, height: 960, bitrate: 1_600_000 },
  { width: 720, height: 1280, bitrate: 2_800_000 },
  { width: 1080, height: 1920, bitrate: 5_000_000 },
];

describe('hls level choice', () => {
  it('turns navigator.connection.downlink (Mbit/s) into hls.js bit/s, or nothing when unknown', () => {
    expect(bandwidthEstimate(10)).toBe(10_000_000);
    expect(bandwidthEstimate(1.45)).toBe(1_450_000);
    expect(bandwidthEstimate(undefined)).toBeUndefined();
    expect(bandwidthEstimate(0)).toBeUndefined();
  });

  it('caps data saver at the 360p rendition by short side', () => {
    expect(dataSaverCap(ladder)).toBe(0);
    const landscape = ladder.map((l) => ({ ...l, width: l.height, height: l.width }));
    expect(dataSaverCap(landscape)).toBe(0);
    // A ladder whose smallest rung is larger: the smallest there is.
    expect(dataSaverCap(ladder.slice(1))).toBe(0);
    expect(dataSaverCap([{ width: 240, height: 426, bitrate: 300_000 }, ...ladder])).toBe(1);
  });

  it('starts at the smallest rendition that covers the player, lowered to fit the bandwidth', () => {
    const phone = { playerWidth: 360 * 2, playerHeight: 640 * 2, cap: -1 };
    expect(chooseStartLevel(ladder, { ...phone, bandwidth: 20_000_000 })).toBe(2);
    expect(chooseStartLevel(ladder, { ...phone, bandwidth: 3_000_000 })).toBe(1);
    expect(chooseStartLevel(ladder, { ...phone, bandwidth: 500_000 })).toBe(0);
    expect(chooseStartLevel(ladder, { ...phone, bandwidth: undefined })).toBe(2);
    // A big screen gets the top; a small player never more than it shows.
    expect(chooseStartLevel(ladder, { playerWidth: 2000, playerHeight: 3000, cap: -1, bandwidth: 50_000_000 })).toBe(3);
    expect(chooseStartLevel(ladder, { playerWidth: 300, playerHeight: 533, cap: -1, bandwidth: 50_000_000 })).toBe(0);
  });

  it('never starts above the data saver cap', () => {
    expect(chooseStartLevel(ladder, { playerWidth: 1080, playerHeight: 1920, cap: 0, bandwidth: 50_000_000 })).toBe(0);
    expect(chooseStartLevel([], { playerWidth: 1, playerHeight: 1, cap: -1, bandwidth: undefined })).toBe(-1);
  });
});
