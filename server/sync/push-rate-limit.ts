import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { tooManyRequests } from '../http/errors';
import { TokenBucketLimiter } from '../security/token-bucket';
import { SharedBucketLimit, type BucketLimit } from '../security/shared-limits';

// Pushes per member, as a token bucket (docs/sync.md, "Push rate limit"): a member holds up to
// `burst` pushes and earns `perMinute` back per minute. An honest outbox sends one push per user
// action at most (actions made while a push is out travel together in the next one, up to 100), so
// a long offline queue of 100 x burst mutations drains in one burst, while a bot that loops is held
// to the refill rate. One bucket per member, shared by all their devices and tabs, and on
// PostgreSQL by every instance of the database (the rate_limits table, security/shared-limits.ts).

const limiters = new WeakMap<AppDeps, BucketLimit>();

function limiterOf(deps: AppDeps): BucketLimit {
  let limiter = limiters.get(deps);
  if (!limiter) {
    if (deps.engine.dialect === 'postgres') limiter = new SharedBucketLimit(deps.db, 'push', deps.config.pushRate);
    else {
      const memory = new TokenBucketLimiter(deps.config.pushRate);
      limiter = { take: (key, now) => Promise.resolve(memory.take(key, now)) };
    }
    limiters.set(deps, limiter);
  }
  return limiter;
}

/** Throws 429 rate_limited with Retry-After when the member has no push left; nothing is applied. */
async function takePush(deps: AppDeps, userId: string): Promise<void> {
  const waitMs = await limiterOf(deps).take(userId, deps.now());
  if (waitMs > 0) throw tooManyRequests(waitMs / 1000, 'Too many pushes. Your changes are kept; they are sent again shortly.');
}

/** Route middleware, after requireUser. */
export const limitPushes: MiddlewareHandler<AppEnv> = async (c, next) => {
  await takePush(c.var.deps, c.var.user.id);
  await next();
};
