// In-memory, per-process rate limits for brute-force protection (login failures, sign-ups, mail
// resends). Fixed windows keyed by a string (an IP, an address): the first hit opens a window, and
// once `limit` hits are in it the key is blocked until the window ends. Time comes from the caller
// (deps.now), so tests move it without sleeping. A restart forgets every window: this is the SQLite
// server's store (one process); on PostgreSQL the instances share the same windows in the
// rate_limits table (shared-limits.ts).

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitState {
  blocked: boolean;
  /** Milliseconds until the window ends (0 when no window is open). */
  retryAfterMs: number;
  remaining: number;
}

interface Window {
  start: number;
  hits: number;
}

/** Above this many keys, expired windows are swept on the next hit so memory stays bounded. */
const SWEEP_ABOVE = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(readonly rule: RateLimitRule) {}

  private current(key: string, now: number): Window | undefined {
    const w = this.windows.get(key);
    if (w && now - w.start >= this.rule.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  /** Whether `key` is blocked now, without counting anything. */
  peek(key: string, now: number): RateLimitState {
    const w = this.current(key, now);
    if (!w) return { blocked: false, retryAfterMs: 0, remaining: this.rule.limit };
    const retryAfterMs = w.start + this.rule.windowMs - now;
    return { blocked: w.hits >= this.rule.limit, retryAfterMs, remaining: Math.max(0, this.rule.limit - w.hits) };
  }

  /** Counts one hit against `key` and returns the state after it. */
  hit(key: string, now: number): RateLimitState {
    if (this.windows.size > SWEEP_ABOVE) this.sweep(now);
    let w = this.current(key, now);
    if (!w) {
      w = { start: now, hits: 0 };
      this.windows.set(key, w);
    }
    w.hits++;
    return this.peek(key, now);
  }

  /**
   * Counts a hit unless the key is already blocked; returns whether the action may go ahead.
   * For actions limited by attempts (sign-up, resend), not by failures.
   */
  take(key: string, now: number): RateLimitState {
    const before = this.peek(key, now);
    if (before.blocked) return before;
    const after = this.hit(key, now);
    return { ...after, blocked: false };
  }

  /**
   * Gives back one hit taken in the current window: an attempt reserved before slow work (a
   * password hash) that turned out not to count (a success, or the work never ran).
   */
  release(key: string, now: number): void {
    const w = this.current(key, now);
    if (w && w.hits > 0) w.hits--;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= this.rule.windowMs) this.windows.delete(key);
  }
}
