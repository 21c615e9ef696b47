import { describe, expect, it } from 'vitest';
import { checkCaptions, checkFile, checkUpload, checkVideoBytes, looksLikeVideo } from './checks';

describe('upload dialog checks', () => {
  const video = { size: 1000, type: 'video/mp4' };
  it('asks for a title and a file first', () => {
    expect(checkUpload({ title: '', file: video, durationMs: 1000 })).toBe('missing_info');
    expect(checkUpload({ title: '   ', file: video, durationMs: 1000 })).toBe('missing_info');
    expect(checkUpload({ title: 'Hi', file: null, durationMs: null })).toBe('missing_info');
  });
  it('refuses files over 120 MiB and non-videos', () => {
    expect(checkFile({ size: 125_829_121, type: 'video/mp4' })).toBe('too_large');
    expect(checkFile({ size: 125_829_120, type: 'video/mp4' })).toBeNull();
    expect(checkFile({ size: 10, type: 'image/png' })).toBe('invalid_type');
    expect(checkFile({ size: 10, type: '' })).toBe('invalid_type');
  });
  it('refuses videos longer than 2 minutes, and lets unknown durations through to the server', () => {
    expect(checkUpload({ title: 'Hi', file: video, durationMs: 120_001 })).toBe('too_long');
    expect(checkUpload({ title: 'Hi', file: video, durationMs: 120_000 })).toBeNull();
    expect(checkUpload({ title: 'Hi', file: video, durationMs: null })).toBeNull();
  });

  describe('the first bytes', () => {
    const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
    const ftyp = bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0], 'isomiso2');
    it('take an MP4 / QuickTime ftyp box and the WebM / Matroska EBML magic', () => {
      expect(looksLikeVideo(ftyp)).toBe(true);
      expect(looksLikeVideo(bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 0, 0]))).toBe(true);
      expect(looksLikeVideo(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]))).toBe(true);
    });
    it('refuse text renamed .mp4, an ftyp too small to be a box, and a file too short to tell', () => {
      expect(looksLikeVideo(bytes('Holiday notes, not a video.\n'))).toBe(false);
      expect(looksLikeVideo(bytes([0, 0, 0, 8], 'ftypisom'))).toBe(false);
      expect(looksLikeVideo(bytes([0, 0, 0, 0x20], 'ftyp'))).toBe(false);
      expect(looksLikeVideo(bytes([0x1a, 0x45, 0xdf]))).toBe(false);
      expect(looksLikeVideo(new Uint8Array())).toBe(false);
    });
    it('read only the head of the file', async () => {
      expect(await checkVideoBytes(new Blob([ftyp, new Uint8Array(1000)], { type: 'video/mp4' }))).toBeNull();
      expect(await checkVideoBytes(new Blob(['Holiday notes, not a video.\n'], { type: 'video/mp4' }))).toBe('invalid_type');
    });
  });

  it('takes a WebVTT file of at most 100 KB, nothing else', async () => {
    expect(await checkCaptions(new Blob(['WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n']))).toBeNull();
    expect(await checkCaptions(new Blob(['1\n00:00:00,000 --> 00:00:01,000\nHi\n']))).toBe('invalid_captions');
    expect(await checkCaptions(new Blob([]))).toBe('invalid_captions');
    expect(await checkCaptions(new Blob(['WEBVTT\n', 'x'.repeat(100 * 1024)]))).toBe('invalid_captions');
  });
});
