import { describe, expect, it } from 'vitest';
import { parseRange } from './range';

describe('Range header parsing', () => {
  it('serves the whole file without a Range header or with another unit', () => {
    expect(parseRange(null, 100)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-5', 100)).toEqual({ kind: 'full' });
  });

  it('reads closed, open-ended and suffix ranges, clamping the end', () => {
    expect(parseRange('bytes=0-0', 100)).toEqual({ kind: 'partial', start: 0, end: 0 });
    expect(parseRange('bytes=10-19', 100)).toEqual({ kind: 'partial', start: 10, end: 19 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=90-5000', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
  });

  it('refuses ranges past the end, reversed, empty, multiple or malformed', () => {
    for (const h of ['bytes=100-', 'bytes=200-300', 'bytes=20-10', 'bytes=-0', 'bytes=0-1,5-6', 'bytes=abc', 'bytes=-', 'nonsense']) {
      expect(parseRange(h, 100).kind, h).toBe('unsatisfiable');
    }
    expect(parseRange('bytes=0-', 0).kind).toBe('unsatisfiable');
  });
});
