/** When a 429 names no usable Retry-After, wait this long (the server's refill is one push a second). */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 1_000;
/** A Retry-After beyond this is not believed (a clock skew, a misconfigured proxy): the queue must not sleep for hours. */
export const MAX_RATE_LIMIT_WAIT_MS = 5 * 60_000;

/**
 * Milliseconds to wait from a Retry-After header: delay-seconds or an HTTP date (RFC 9110 10.2.3),
 * clamped to [0, MAX_RATE_LIMIT_WAIT_MS]; the default when it is absent or unreadable.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return DEFAULT_RATE_LIMIT_WAIT_MS;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    // An HTTP date names its weekday and month; Date.parse alone would take '-5' for a year.
    const at = /[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(at)) return DEFAULT_RATE_LIMIT_WAIT_MS;
    ms = at - now;
  }
  return Math.min(MAX_RATE_LIMIT_WAIT_MS, Math.max(0, ms));
}
