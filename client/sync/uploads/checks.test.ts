import { describe, expect, it } from 'vitest';
import { checkFile, checkUpload, INVALID_TYPE, MISSING_INFO, TOO_LARGE, TOO_LONG } from './checks';

describe('upload dialog checks', () => {
  const video = { size: 1000, type: 'video/mp4' };
  it('asks for a title and a file first', () => {
    expect(checkUpload({ title: '', file: video, durationMs: 1000 })).toBe(MISSING_INFO);
    expect(checkUpload({ title: '   ', file: video, durationMs: 1000 })).toBe(MISSING_INFO);
    expect(checkUpload({ title: 'Hi', file: null, durationMs: null })).toBe(MISSING_INFO);
  });
  it('refuses files over 120 MiB and non-videos', () => {
    expect(checkFile({ size: 125_829_121, type: 'video/mp4' })).toBe(TOO_LARGE);
    expect(checkFile({ size: 125_829_120, type: 'video/mp4' })).toBeNull();
    expect(checkFile({ size: 10, type: 'image/png' })).toBe(INVALID_TYPE);
    expect(checkFile({ size: 10, type: '' })).toBe(INVALID_TYPE);
    expect(TOO_LARGE).toEqual({ title: 'File too large', description: 'Please select a video under 120MB (approximately 2 minutes)' });
  });
  it('refuses videos longer than 2 minutes, and lets unknown durations through to the server', () => {
    expect(checkUpload({ title: 'Hi', file: video, durationMs: 120_001 })).toBe(TOO_LONG);
    expect(checkUpload({ title: 'Hi', file: video, durationMs: 120_000 })).toBeNull();
    expect(checkUpload({ title: 'Hi', file: video, durationMs: null })).toBeNull();
  });
});
