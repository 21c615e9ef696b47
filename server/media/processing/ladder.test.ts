import { describe, expect, it } from 'vitest';
import { codecsFor, h264Level, planLadder } from './ladder';

const input = (displayWidth: number, displayHeight: number, num = 30, den = 1, hasAudio = true) => ({
  displayWidth,
  displayHeight,
  fps: { num, den },
  hasAudio,
});
const sizes = (w: number, h: number) => planLadder(input(w, h)).renditions.map((r) => `${r.name}:${r.width}x${r.height}`);

describe('planLadder', () => {
  it('keeps a vertical 1080x1920 source vertical at every rung, the short side naming it', () => {
    expect(sizes(1080, 1920)).toEqual(['v360:360x640', 'v540:540x960', 'v720:720x1280', 'v1080:1080x1920']);
  });

  it('plans landscape 1080p the same way round', () => {
    expect(sizes(1920, 1080)).toEqual(['v360:640x360', 'v540:960x540', 'v720:1280x720', 'v1080:1920x1080']);
  });

  it('never upscales: a 720p source stops at 720, a 480p source at 360', () => {
    expect(sizes(1280, 720)).toEqual(['v360:640x360', 'v540:960x540', 'v720:1280x720']);
    expect(sizes(480, 854)).toEqual(['v360:360x640']);
  });

  it('gives a source below 360p one rendition at its own size, rounded down to even', () => {
    expect(sizes(321, 181)).toEqual(['v180:320x180']);
    expect(sizes(181, 321)).toEqual(['v180:180x320']);
  });

  it('keeps every dimension even for odd aspect ratios', () => {
    for (const [w, h] of [
      [1079, 1917],
      [1440, 1080],
      [1000, 1000],
      [3840, 1644],
    ] as const) {
      for (const r of planLadder(input(w, h)).renditions) {
        expect(r.width % 2, `${w}x${h} ${r.name}`).toBe(0);
        expect(r.height % 2, `${w}x${h} ${r.name}`).toBe(0);
      }
    }
  });

  it('caps the frame rate at 30, keeps lower and NTSC rates, rounds odd variable-rate averages', () => {
    expect(planLadder(input(640, 360, 60)).fps).toBe('30');
    expect(planLadder(input(640, 360, 60000, 1001)).fps).toBe('30');
    expect(planLadder(input(640, 360, 25)).fps).toBe('25/1');
    expect(planLadder(input(640, 360, 30000, 1001)).fps).toBe('30000/1001');
    expect(planLadder(input(640, 360, 2413, 100)).fps).toBe('24');
  });

  it('makes the GOP two seconds of output frames so segments and keyframes line up', () => {
    expect(planLadder(input(640, 360, 60)).gop).toBe(60);
    expect(planLadder(input(640, 360, 25)).gop).toBe(50);
    expect(planLadder(input(640, 360, 15)).gop).toBe(30);
  });

  it('uses the bitrates of the ladder and says the codecs, with or without audio', () => {
    const [r360, r540, r720, r1080] = planLadder(input(1080, 1920)).renditions;
    expect([r360, r540, r720, r1080].map((r) => r?.videoBitrate)).toEqual([700_000, 1_400_000, 2_400_000, 4_500_000]);
    expect(r360?.codecs).toBe('avc1.64001e,mp4a.40.2');
    expect(r1080?.codecs).toBe('avc1.640028,mp4a.40.2');
    expect(planLadder(input(640, 360, 30, 1, false)).renditions[0]?.codecs).toBe('avc1.64001e');
    for (const r of [r360, r540, r720, r1080]) expect(r!.bandwidth).toBeGreaterThan(r!.videoBitrate);
  });
});

describe('h264Level', () => {
  it('picks the smallest level that fits the frame size and rate', () => {
    expect(h264Level(640, 360, 30)).toBe(30);
    expect(h264Level(960, 540, 30)).toBe(31);
    expect(h264Level(1280, 720, 30)).toBe(31);
    expect(h264Level(1920, 1080, 30)).toBe(40);
    expect(h264Level(1080, 1920, 30)).toBe(40);
  });

  it('writes the level as the last byte of the avc1 string', () => {
    expect(codecsFor(31, false)).toBe('avc1.64001f');
  });
});

describe('the starter rung', () => {
  const starter = (w: number, h: number, hasAudio = true) => planLadder(input(w, h, 30, 1, hasAudio)).starter;

  it('is 240p by short side at 300 kbit/s of video and 64 kbit/s of audio, either way round', () => {
    expect(starter(1080, 1920)).toMatchObject({ name: 'v240', width: 240, height: 426, videoBitrate: 300_000, audioBitrate: 64_000 });
    expect(starter(1920, 1080)).toMatchObject({ name: 'v240', width: 426, height: 240 });
    expect(starter(1080, 1920)!.bandwidth).toBe(450_000 + 64_000);
    expect(starter(1080, 1920, false)!.bandwidth).toBe(450_000);
  });

  it('is never upscaled: a source of 240p or less has none, one just above has both', () => {
    expect(starter(426, 240)).toBeUndefined();
    expect(starter(321, 181)).toBeUndefined();
    expect(planLadder(input(534, 300)).renditions.map((r) => r.name)).toEqual(['v300']);
    expect(starter(534, 300)?.name).toBe('v240');
  });

  it('leaves the ladder as it was', () => {
    expect(sizes(1080, 1920)).toEqual(['v360:360x640', 'v540:540x960', 'v720:720x1280', 'v1080:1080x1920']);
  });
});
