import { describe, expect, it } from 'vitest';
import { negotiateEncoding, varyWithAcceptEncoding, type Negotiated } from './accept-encoding';

const BOTH = ['br', 'gzip'] as const;

describe('negotiateEncoding (RFC 9110 §12.5.3)', () => {
  const cases: Array<[string | undefined, Negotiated]> = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['GZIP, BR', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br; q=0, gzip', 'gzip'],
    ['br;Q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br', 'br'],
    ['gzip, br;q=0.5', 'gzip'],
    ['br;q=1.0, gzip;q=0.999', 'br'],
    ['br;q=0.001', 'br'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['*;q=0, gzip', 'gzip'],
    ['*;q=0', 'identity'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['identity;q=0', 'identity'],
    ['identity, br;q=0.5', 'identity'],
    ['identity;q=0.5, br', 'br'],
    ['br, identity', 'br'],
    // Weights outside RFC 9110's qvalue grammar make their element unusable.
    ['br;q=2, gzip', 'gzip'],
    ['br;q=abc, gzip', 'gzip'],
    ['br;q=0.0001, gzip;q=0.5', 'gzip'],
    [' , ;q=1, br', 'br'],
  ];
  it.each(cases)('%j -> %s', (header, expected) => {
    expect(negotiateEncoding(header, BOTH)).toBe(expected);
  });

  it('offers only what the file has: a file with only .gz never answers br', () => {
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateEncoding('br', ['gzip'])).toBe('identity');
    expect(negotiateEncoding('br, gzip', [])).toBe('identity');
  });

  it('breaks ties by the order offered', () => {
    expect(negotiateEncoding('br, gzip', ['gzip', 'br'])).toBe('gzip');
  });
});

describe('varyWithAcceptEncoding', () => {
  it('adds Accept-Encoding once, and leaves * alone', () => {
    expect(varyWithAcceptEncoding(null)).toBe('Accept-Encoding');
    expect(varyWithAcceptEncoding('Origin')).toBe('Origin, Accept-Encoding');
    expect(varyWithAcceptEncoding('Origin, accept-encoding')).toBe('Origin, accept-encoding');
    expect(varyWithAcceptEncoding('*')).toBe('*');
  });
});
