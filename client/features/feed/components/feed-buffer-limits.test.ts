import { describe, expect, it } from 'vitest';
import { feedBufferLimits, PLAYING_BUFFER_SECONDS, SEGMENT_SECONDS } from './hls-levels';

describe('feedBufferLimits', () => {
  it('stops after the first segment while preloading', () => {
    expect(feedBufferLimits(true).maxBufferLength).toBeLessThan(SEGMENT_SECONDS);
    expect(feedBufferLimits(true).maxMaxBufferLength).toBeLessThan(SEGMENT_SECONDS);
  });

  it('buffers about 10 s ahead once playing, with no growth past it (hls.js would go to 600 s)', () => {
    expect(PLAYING_BUFFER_SECONDS).toBe(10);
    expect(feedBufferLimits(false)).toEqual({ maxBufferLength: PLAYING_BUFFER_SECONDS, maxMaxBufferLength: PLAYING_BUFFER_SECONDS });
  });
});
