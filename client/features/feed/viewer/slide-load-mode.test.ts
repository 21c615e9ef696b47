import { describe, expect, it } from 'vitest';
import { slideLoadMode } from './slide-load-mode';

describe('slideLoadMode', () => {
  it('keeps the source on the video before the one in view, as on the one after', () => {
    expect([3, 4, 5, 6, 7, 8, 9].map((i) => slideLoadMode(i, 5, false))).toEqual(['none', 'preload', 'preload', 'preload', 'poster', 'none', 'none']);
  });

  it('under data saver loads nothing before the one in view, nor after', () => {
    expect([3, 4, 5, 6, 7, 8].map((i) => slideLoadMode(i, 5, true))).toEqual(['none', 'poster', 'poster', 'poster', 'poster', 'none']);
  });
});
