import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('blocks a key after `limit` hits until its window ends, independently of other keys', () => {
    const rl = new RateLimiter({ limit: 3, windowMs: 1000 });
    expect(rl.hit('a', 0).blocked).toBe(false);
    expect(rl.hit('a', 100).blocked).toBe(false);
    expect(rl.hit('a', 200)).toEqual({ blocked: true, retryAfterMs: 800, remaining: 0 });
    expect(rl.peek('a', 999).blocked).toBe(true);
    expect(rl.peek('b', 500).blocked).toBe(false);
    expect(rl.peek('a', 1000)).toEqual({ blocked: false, retryAfterMs: 0, remaining: 3 });
  });

  it('take() refuses without counting once blocked', () => {
    const rl = new RateLimiter({ limit: 2, windowMs: 1000 });
    expect(rl.take('k', 0).blocked).toBe(false);
    expect(rl.take('k', 1).blocked).toBe(false);
    const refused = rl.take('k', 2);
    expect(refused.blocked).toBe(true);
    expect(refused.retryAfterMs).toBe(998);
    expect(rl.take('k', 1000).blocked).toBe(false);
  });

  it('release() gives one hit back within the window, and nothing once the window ended', () => {
    const rl = new RateLimiter({ limit: 2, windowMs: 1000 });
    rl.take('k', 0);
    rl.take('k', 1);
    expect(rl.take('k', 2).blocked).toBe(true);
    rl.release('k', 3);
    expect(rl.take('k', 4).blocked).toBe(false);
    rl.release('k', 1500);
    expect(rl.peek('k', 1500).remaining).toBe(2);
  });

  it('reset() clears a key', () => {
    const rl = new RateLimiter({ limit: 1, windowMs: 1000 });
    rl.hit('k', 0);
    expect(rl.peek('k', 1).blocked).toBe(true);
    rl.reset('k');
    expect(rl.peek('k', 1).blocked).toBe(false);
  });

  it('sweeps expired windows so memory stays bounded', () => {
    const rl = new RateLimiter({ limit: 5, windowMs: 10 });
    for (let i = 0; i <= 10_001; i++) rl.hit(`ip-${i}`, 0);
    rl.hit('late', 100);
    expect((rl as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });
});
