import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { Engine } from '#db/engine';
import { tooManyRequests } from '../http/errors';
import { RateLimiter, type RateLimitState } from './rate-limit';
import { SharedWindowLimit, type WindowLimit } from './shared-limits';

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

export type AuthLimits = { [K in keyof typeof AUTH_LIMIT_RULES]: WindowLimit };

/** A window limit in this process's memory: the hit is counted before the promise is returned, as it always was. */
function inMemory(limiter: RateLimiter): WindowLimit {
  return {
    take: (key, now) => Promise.resolve(limiter.take(key, now)),
    release: (key, now) => Promise.resolve(limiter.release(key, now)),
    reset: (key) => Promise.resolve(limiter.reset(key)),
  };
}

/** One in-memory set per app instance, so every test app (and every process) starts with clean windows. */
export function createAuthLimits(): AuthLimits {
  const entries = Object.entries(AUTH_LIMIT_RULES).map(([k, rule]) => [k, inMemory(new RateLimiter(rule))]);
  return Object.fromEntries(entries) as AuthLimits;
}

/** The set kept in the rate_limits table, which every instance of one PostgreSQL database counts into. */
export function createSharedAuthLimits(db: Kysely<Database>): AuthLimits {
  const entries = Object.entries(AUTH_LIMIT_RULES).map(([k, rule]) => [k, new SharedWindowLimit(db, k, rule)]);
  return Object.fromEntries(entries) as AuthLimits;
}

/**
 * The limits of one router, by the database its request's deps use: on SQLite (one process) its
 * own in-memory set, unchanged; on PostgreSQL, where several instances may serve one database,
 * the shared table.
 */
export function authLimitsSource(): (deps: { engine: Engine; db: Kysely<Database> }) => AuthLimits {
  const memory = createAuthLimits();
  const shared = new WeakMap<Kysely<Database>, AuthLimits>();
  return ({ engine, db }) => {
    if (engine.dialect === 'sqlite') return memory;
    let limits = shared.get(db);
    if (!limits) {
      limits = createSharedAuthLimits(db);
      shared.set(db, limits);
    }
    return limits;
  };
}

/** Counts one attempt against each (limit, key) and throws 429 with Retry-After when any is blocked. */
export async function takeOrRefuse(takes: Array<[WindowLimit, string]>, now: number, message?: string): Promise<void> {
  refuseIfBlocked(await Promise.all(takes.map(([limit, key]) => limit.take(key, now))), message);
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
  release(now: number): Promise<void>;
  /** The password was right: the account's (or device's) failures are forgotten. */
  succeeded(now: number): Promise<void>;
}

/**
 * Reserves one password check before the ~0.4 s hash, so of any number of concurrent guesses at
 * most the limit get past this line; the rest are refused with 429 at once. (In memory each take
 * counts synchronously; in the shared table each is one atomic upsert.) A failure simply keeps its
 * reservation. `deviceKey` (a session the caller already holds) swaps the account and IP budgets
 * for the device's own.
 */
export async function reservePasswordAttempt(
  limits: AuthLimits,
  keys: { account: string; ip: string; deviceKey?: string | undefined },
  now: number,
): Promise<PasswordAttempt> {
  const taken: Array<[WindowLimit, string]> =
    keys.deviceKey !== undefined
      ? [[limits.loginFailuresPerDevice, keys.deviceKey]]
      : [
          [limits.loginFailuresPerAccount, keys.account],
          [limits.loginFailuresPerIp, keys.ip],
        ];
  const states = await Promise.all(taken.map(([limit, key]) => limit.take(key, now)));
  if (states.some((s) => s.blocked)) {
    await Promise.all(taken.map(([limit, key], i) => (states[i]?.blocked ? undefined : limit.release(key, now))));
    refuseIfBlocked(states, LOGIN_LOCK_MESSAGE);
  }
  return {
    release: async (at) => {
      await Promise.all(taken.map(([limit, key]) => limit.release(key, at)));
    },
    succeeded: async (at) => {
      const [first, ...rest] = taken;
      await Promise.all([first?.[0].reset(first[1]), ...rest.map(([limit, key]) => limit.release(key, at))]);
    },
  };
}
