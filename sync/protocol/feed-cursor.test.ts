import { describe, expect, it } from 'vitest';
import { decodeFeedCursor, encodeFeedCursor } from './feed-cursor';

describe('feed cursor', () => {
  it('round-trips and is URL-safe', () => {
    const c = encodeFeedCursor(1_763_700_000_123, 'a1b2-c3_d4');
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeFeedCursor(c)).toEqual({ at: 1_763_700_000_123, id: 'a1b2-c3_d4' });
  });
  it('refuses anything it did not make', () => {
    for (const bad of ['', '%%', 'bm9wZQ', btoa('x:y'), btoa('12:bad id'), 'a'.repeat(300)]) expect(decodeFeedCursor(bad)).toBeNull();
  });
});
