// A token bucket per key: a key holds up to `burst` tokens and earns `perMinute` back per minute.
// Suits actions that may come in honest bursts but must not be sustained (pushes); the fixed
// windows of rate-limit.ts suit counted failures. In memory, per process (SQLite): a restart
// refills every bucket. On PostgreSQL the buckets live in the rate_limits table (shared-limits.ts).

interface Bucket {
  tokens: number;
  at: number;
}

/** Above this many buckets, full ones (keys idle long enough to have refilled) are dropped. */
const SWEEP_ABOVE = 10_000;

export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(private readonly rule: { burst: number; perMinute: number }) {
    this.perMs = rule.perMinute / 60_000;
  }

  /** Takes one token for `key`: 0 when the action may go ahead, else the milliseconds until one is earned. */
  take(key: string, now: number): number {
    if (this.buckets.size > SWEEP_ABOVE) this.sweep(now);
    const b = this.level(key, now);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / this.perMs);
  }

  private level(key: string, now: number): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.rule.burst, at: now };
      this.buckets.set(key, b);
    }
    // A clock that moved back (tests, NTP) earns nothing rather than taking tokens away.
    b.tokens = Math.min(this.rule.burst, b.tokens + Math.max(0, now - b.at) * this.perMs);
    b.at = now;
    return b;
  }

  private sweep(now: number): void {
    for (const [id, b] of this.buckets) if (b.tokens + (now - b.at) * this.perMs >= this.rule.burst) this.buckets.delete(id);
  }
}
