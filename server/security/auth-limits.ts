import { tooManyRequests } from '../http/errors';
import { RateLimiter, type RateLimitState } from './rate-limit';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The brute-force limits of the accounts API (issue 2), per account/address and per client IP. */
export const AUTH_LIMIT_RULES = {
  /** Failed logins per e-mail address; while blocked even the right password gets 429. */
  loginFailuresPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  /** Failed logins per IP, across addresses (credential stuffing). */
  loginFailuresPerIp: { limit: 20, windowMs: 15 * MINUTE },
  signupsPerAddress: { limit: 5, windowMs: HOUR },
  signupsPerIp: { limit: 20, windowMs: HOUR },
  resendsPerAddress: { limit: 5, windowMs: HOUR },
  resendsPerIp: { limit: 20, windowMs: HOUR },
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
