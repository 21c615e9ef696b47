import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { tooManyRequests } from '../http/errors';

// Pushes per member, as a token bucket (docs/sync.md, "Push rate limit"): a member holds up to
// `burst` pushes and earns `perMinute` back per minute. An honest outbox sends one push per user
// action at most (actions made while a push is out travel together in the next one, up to 100), so
// a long offline queue of 100 x burst mutations drains in one burst, while a bot that loops is held
// to the refill rate. One bucket per member, shared by all their devices and tabs. In memory, per
// process, like the login limits: a restart refills every bucket.

interface Bucket {
  tokens: number;
  at: number;
}

/** Above this many buckets, full ones (members idle long enough to have refilled) are dropped. */
const SWEEP_ABOVE = 10_000;

export class PushRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(private readonly rule: { burst: number; perMinute: number }) {
    this.perMs = rule.perMinute / 60_000;
  }

  /** Takes one push for `userId`: 0 when it may go ahead, else the milliseconds until one is earned. */
  take(userId: string, now: number): number {
    if (this.buckets.size > SWEEP_ABOVE) this.sweep(now);
    const b = this.level(userId, now);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / this.perMs);
  }

  private level(userId: string, now: number): Bucket {
    let b = this.buckets.get(userId);
    if (!b) {
      b = { tokens: this.rule.burst, at: now };
      this.buckets.set(userId, b);
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

const limiters = new WeakMap<AppDeps, PushRateLimiter>();

/** Throws 429 rate_limited with Retry-After when the member has no push left; nothing is applied. */
function takePush(deps: AppDeps, userId: string): void {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = new PushRateLimiter(deps.config.pushRate);
    limiters.set(deps, limiter);
  }
  const waitMs = limiter.take(userId, deps.now());
  if (waitMs > 0) throw tooManyRequests(waitMs / 1000, 'Too many pushes. Your changes are kept; they are sent again shortly.');
}

/** Route middleware, after requireUser. */
export const limitPushes: MiddlewareHandler<AppEnv> = async (c, next) => {
  takePush(c.var.deps, c.var.user.id);
  await next();
};
