import { describe, expect, it } from 'vitest';
import { MAX_CAPTION_BYTES, validateWebVtt } from './captions';

const enc = (s: string) => new TextEncoder().encode(s);
const GOOD = 'WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\nHello\n\n00:05.000 --> 00:06.500 align:start\nWorld\n';

describe('validateWebVtt', () => {
  it('accepts a well-formed file, with or without a BOM, with CRLF line ends and a header comment', () => {
    expect(validateWebVtt(enc(GOOD))).toEqual({ ok: true, text: GOOD });
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc(GOOD)]);
    expect(validateWebVtt(bom)).toEqual({ ok: true, text: GOOD });
    expect(validateWebVtt(enc('WEBVTT - captions\r\n\r\n01:00:00.000 --> 01:00:02.000\r\nHi\r\n')).ok).toBe(true);
    expect(validateWebVtt(enc('WEBVTT')).ok).toBe(true);
  });

  it('refuses a file that does not start with WEBVTT', () => {
    expect(validateWebVtt(enc('1\n00:00:01,000 --> 00:00:02,000\nSRT\n'))).toEqual({ ok: false, reason: expect.stringContaining('WEBVTT') });
    expect(validateWebVtt(enc('WEBVTTX\n')).ok).toBe(false);
    expect(validateWebVtt(enc(' WEBVTT\n')).ok).toBe(false);
  });

  it('refuses malformed timings and cues that end before they start', () => {
    expect(validateWebVtt(enc('WEBVTT\n\n00:00:01,000 --> 00:00:02,000\nx\n'))).toEqual({ ok: false, reason: expect.stringContaining('line 3') });
    expect(validateWebVtt(enc('WEBVTT\n\n00:61.000 --> 00:62.000\nx\n')).ok).toBe(false);
    expect(validateWebVtt(enc('WEBVTT\n\n00:01.000 -> 00:02.000\nx\n')).ok).toBe(true); // not a timing line at all: cue text
    expect(validateWebVtt(enc('WEBVTT\n\n00:02.000 --> 00:01.000\nx\n'))).toEqual({ ok: false, reason: expect.stringContaining('ends before') });
    expect(validateWebVtt(enc('WEBVTT\n\n00:02.000 --> 00:02.000\nx\n')).ok).toBe(false);
    expect(validateWebVtt(enc('WEBVTT\n\n00:01.00 --> 00:02.000\nx\n')).ok).toBe(false);
  });

  it('refuses invalid UTF-8, control characters and files over 100 KB', () => {
    expect(validateWebVtt(new Uint8Array([...enc('WEBVTT\n\n'), 0xff, 0xfe]))).toEqual({ ok: false, reason: expect.stringContaining('UTF-8') });
    expect(validateWebVtt(enc('WEBVTT\n\nnul\u0000here\n'))).toEqual({ ok: false, reason: expect.stringContaining('control') });
    expect(validateWebVtt(enc('WEBVTT\n\nbell\u0007\n')).ok).toBe(false);
    expect(validateWebVtt(enc('WEBVTT\n\n\u0085\n')).ok).toBe(false);
    expect(validateWebVtt(enc('WEBVTT\n\ttab is fine\n')).ok).toBe(true);
    const big = 'WEBVTT\n\n' + 'x'.repeat(MAX_CAPTION_BYTES);
    expect(validateWebVtt(enc(big))).toEqual({ ok: false, reason: expect.stringContaining('100 KB') });
    expect(validateWebVtt(enc(big.slice(0, MAX_CAPTION_BYTES))).ok).toBe(true);
  });
});
