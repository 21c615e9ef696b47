import { describe, expect, it } from 'vitest';
import { MediaProcessingError } from './errors';
import { parseProbe, type FfprobeOutput, type FfprobeStream } from './probe';

const video = (over: FfprobeStream = {}): FfprobeStream => ({
  index: 0,
  codec_type: 'video',
  width: 1920,
  height: 1080,
  pix_fmt: 'yuv420p',
  avg_frame_rate: '30/1',
  duration: '10.0',
  nb_frames: '300',
  ...over,
});
const output = (v: FfprobeStream, format = '10.0', extra: FfprobeStream[] = []): FfprobeOutput => ({ streams: [v, ...extra], format: { duration: format } });

function refusal(out: FfprobeOutput): MediaProcessingError {
  let caught: unknown;
  try {
    parseProbe(out, 'mov');
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(MediaProcessingError);
  expect((caught as MediaProcessingError).permanent).toBe(true);
  return caught as MediaProcessingError;
}

describe('the caps on what a header says, checked before anything is decoded', () => {
  it('accepts phone video up to 4K at 60 fps, upright or sideways, and 1080p at 120 fps', () => {
    for (const [width, height, fps] of [
      [3840, 2160, '60/1'],
      [2160, 3840, '60000/1001'],
      [4096, 2160, '30/1'],
      [4096, 2304, '30/1'],
      [1920, 1080, '120/1'],
      [1080, 1920, '30000/1001'],
    ] as const) {
      expect(parseProbe(output(video({ width, height, avg_frame_rate: fps, nb_frames: '600' })), 'mov')).toMatchObject({ width, height, container: 'mov' });
    }
  });

  it('refuses a side over 4096, a picture over 4096x2304 in all and a rate over 120 with "This video\'s picture is too large"', () => {
    for (const v of [
      video({ width: 4112, height: 64 }),
      video({ width: 64, height: 8192 }),
      video({ width: 4096, height: 2320 }),
      video({ avg_frame_rate: '240/1' }),
    ]) {
      expect(refusal(output(v)).reason).toMatch(/^This video's picture is too large \(/);
    }
  });

  it('does not trust r_frame_rate, which reads 90000/1 on some variable-rate phone clips', () => {
    expect(parseProbe(output(video({ avg_frame_rate: '0/0', r_frame_rate: '90000/1' })), 'mov').width).toBe(1920);
  });

  it('refuses a header that says more than 2 minutes: the movie, a track, or its frames over its rate', () => {
    expect(refusal(output(video(), '600.0')).reason).toBe('This video is longer than 2 minutes (its header says 600 seconds)');
    expect(refusal(output(video({ duration: '600.0' }), '4.0')).reason).toBe("This video is longer than 2 minutes (a track's header says 600 seconds)");
    const frames = refusal(output(video({ duration: '4.0', nb_frames: '600', avg_frame_rate: '1/1' }), '4.0'));
    expect(frames.reason).toBe('This video is longer than 2 minutes (600 frames at 1 a second last 600 seconds)');
    const audio = { index: 1, codec_type: 'audio', duration: '121.0' };
    expect(refusal(output(video(), '10.0', [audio])).reason).toMatch(/track's header says 121 seconds/);
  });

  it('lets a 2:00 clip through with its last AAC frame a little past the limit', () => {
    const audio = { index: 1, codec_type: 'audio', duration: '120.021' };
    expect(parseProbe(output(video({ duration: '120.0', nb_frames: '3600' }), '120.021', [audio]), 'mov').durationMs).toBe(120_021);
  });
});
