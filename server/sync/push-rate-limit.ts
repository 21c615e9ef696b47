import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { tooManyRequests } from '../http/errors';
import { TokenBucketLimiter } from '../security/token-bucket';

// Pushes per member, as a token bucket (docs/sync.md, "Push rate limit"): a member holds up to
// `burst` pushes and earns `perMinute` back per minute. An honest outbox sends one push per user
// action at most (actions made while a push is out travel together in the next one, up to 100), so
// a long offline queue of 100 x burst mutations drains in one burst, while a bot that loops is held
// to the refill rate. One bucket per member, shared by all their devices and tabs.

const limiters = new WeakMap<AppDeps, TokenBucketLimiter>();

/** Throws 429 rate_limited with Retry-After when the member has no push left; nothing is applied. */
function takePush(deps: AppDeps, userId: string): void {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = new TokenBucketLimiter(deps.config.pushRate);
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
