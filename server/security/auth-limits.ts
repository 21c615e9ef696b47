import { tooManyRequests } from '../http/errors';
import { RateLimiter, type RateLimitState } from './rate-limit';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The brute-force limits of the accounts API (issues 2 and 12), per account/address, device and client IP. */
export const AUTH_LIMIT_RULES = {
  /** Password checks per e-mail address (reserved before hashing, kept on failure); while blocked even the right password gets 429. */
  loginFailuresPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  /** Password checks per IP, across addresses (credential stuffing). */
  loginFailuresPerIp: { limit: 20, windowMs: 15 * MINUTE },
  /**
   * Password checks per session a device already holds (its refresh cookie): such a device has its
   * own budget instead of the account's and the IP's, so failures from elsewhere cannot lock it out.
   * Also the budget of a signed-in member's wrong current password on a password change.
   */
  loginFailuresPerDevice: { limit: 5, windowMs: 15 * MINUTE },
  signupsPerAddress: { limit: 5, windowMs: HOUR },
  signupsPerIp: { limit: 20, windowMs: HOUR },
  resendsPerAddress: { limit: 5, windowMs: HOUR },
  resendsPerIp: { limit: 20, windowMs: HOUR },
  resetRequestsPerAddress: { limit: 3, windowMs: HOUR },
  resetRequestsPerIp: { limit: 20, windowMs: HOUR },
} as const;

export type AuthLimits = { [K in keyof typeof AUTH_LIMIT_RULES]: RateLimiter };

/** One set per app instance, so every test app (and every process) starts with clean windows. */
export function createAuthLimits(): AuthLimits {
  const entries = Object.entries(AUTH_LIMIT_RULES).map(([k, rule]) => [k, new RateLimiter(rule)]);
  return Object.fromEntries(entries) as AuthLimits;
}

/** Throws 429 with Retry-After when any of the states is blocked. */
export function refuseIfBlocked(states: RateLimitState[], message?: string): void {
  const blocked = states.filter((s) => s.blocked);
  if (!blocked.length) return;
  const retryAfterMs = Math.max(...blocked.map((s) => s.retryAfterMs));
  throw tooManyRequests(retryAfterMs / 1000, message);
}

export const LOGIN_LOCK_MESSAGE = 'Too many failed sign-in attempts. Please try again later.';

/** A password check reserved against the limits; what happens to the reservation once the check ran. */
export interface PasswordAttempt {
  /** The check never ran (the hash queue was full): nothing is counted. */
  release(now: number): void;
  /** The password was right: the account's (or device's) failures are forgotten. */
  succeeded(now: number): void;
}

/**
 * Reserves one password check before the ~0.4 s hash, synchronously, so of any number of
 * concurrent guesses at most the limit get past this line; the rest are refused with 429 at once.
 * A failure simply keeps its reservation. `deviceKey` (a session the caller already holds) swaps
 * the account and IP budgets for the device's own.
 */
export function reservePasswordAttempt(
  limits: AuthLimits,
  keys: { account: string; ip: string; deviceKey?: string | undefined },
  now: number,
): PasswordAttempt {
  const taken: Array<[RateLimiter, string]> =
    keys.deviceKey !== undefined
      ? [[limits.loginFailuresPerDevice, keys.deviceKey]]
      : [
          [limits.loginFailuresPerAccount, keys.account],
          [limits.loginFailuresPerIp, keys.ip],
        ];
  const states = taken.map(([limiter, key]) => limiter.take(key, now));
  if (states.some((s) => s.blocked)) {
    taken.forEach(([limiter, key], i) => {
      if (!states[i]?.blocked) limiter.release(key, now);
    });
    refuseIfBlocked(states, LOGIN_LOCK_MESSAGE);
  }
  return {
    release: (at) => taken.forEach(([limiter, key]) => limiter.release(key, at)),
    succeeded: (at) => {
      const [first, ...rest] = taken;
      if (first) first[0].reset(first[1]);
      rest.forEach(([limiter, key]) => limiter.release(key, at));
    },
  };
}
