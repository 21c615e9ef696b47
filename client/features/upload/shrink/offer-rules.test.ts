import { describe, expect, it } from 'vitest';
import { costlyConnection } from '#client/lib/connection';
import { estimatedBytes, shrunkName, targetSize, worthShrinking, type VideoFacts } from './plan';

const hd: VideoFacts = { width: 1920, height: 1080, durationSec: 60, videoBitrate: 8_000_000, audioBitrate: 128_000, frameRate: 30, canEncode: true };

describe('when shrinking is offered', () => {
  it('counts a connection as costly by data saver, cellular, a slow type or a low downlink, and never without the API', () => {
    expect(costlyConnection(undefined)).toBeNull();
    expect(costlyConnection({ saveData: true, effectiveType: '4g', downlink: 10 })).toBe('save-data');
    expect(costlyConnection({ type: 'cellular', effectiveType: '4g', downlink: 10 })).toBe('cellular');
    expect(costlyConnection({ effectiveType: '3g' })).toBe('slow');
    expect(costlyConnection({ effectiveType: '4g', downlink: 1.6 })).toBe('slow');
    expect(costlyConnection({ effectiveType: '4g', downlink: 10, type: 'wifi' })).toBeNull();
    // Chromium reports 0 when it has no estimate yet: unknown is not slow.
    expect(costlyConnection({ effectiveType: '4g', downlink: 0 })).toBeNull();
  });

  it('is worth it above 720p or about 4 Mbit/s, and only where this browser can encode', () => {
    expect(worthShrinking(hd)).toBe(true);
    expect(worthShrinking({ ...hd, width: 1080, height: 1920 })).toBe(true);
    expect(worthShrinking({ ...hd, width: 1280, height: 720, videoBitrate: 2_500_000 })).toBe(false);
    expect(worthShrinking({ ...hd, width: 1280, height: 720, videoBitrate: 6_000_000 })).toBe(true);
    expect(worthShrinking({ ...hd, canEncode: false })).toBe(false);
  });

  it('aims at the shorter side 720, the aspect kept with even sides, and says what it will weigh', () => {
    expect(targetSize(1920, 1080)).toEqual({ width: 1280, height: 720 });
    expect(targetSize(1080, 1920)).toEqual({ width: 720, height: 1280 });
    expect(targetSize(1440, 1080)).toEqual({ width: 960, height: 720 });
    expect(targetSize(1280, 720)).toEqual({ width: 1280, height: 720 });
    // 2 Mbit/s of video plus 128 kbit/s of audio for a minute, and 3 % for the container: about 16.4 MB.
    expect(estimatedBytes(hd) / 1e6).toBeCloseTo(16.4, 1);
    expect(shrunkName('beach day.MOV', 'mp4')).toBe('beach day-720p.mp4');
    expect(shrunkName('.hidden', 'webm')).toBe('video-720p.webm');
  });
});
