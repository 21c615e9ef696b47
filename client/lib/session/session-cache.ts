import type { SessionUser } from './session-types';

// Only the profile is cached (never a token), so the app can open signed in with no network.
export const SESSION_USER_KEY = 'vidi.session.user';
const KEY = SESSION_USER_KEY;

export function readCachedUser(): SessionUser | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const u = JSON.parse(raw) as Partial<SessionUser>;
    return typeof u.id === 'string' && typeof u.email === 'string' ? (u as SessionUser) : null;
  } catch {
    return null;
  }
}

export function writeCachedUser(user: SessionUser | null): void {
  try {
    if (user) localStorage.setItem(KEY, JSON.stringify(user));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage full or disabled: the session still works, only offline start is lost.
  }
}

/**
 * The refresh cookie is HttpOnly, so the page cannot see whether it is still there. This readable
 * twin is written whenever the server has just set it (sign-in, refresh) with the same lifetime
 * (REFRESH_TOKEN_TTL_MS in server/auth/refresh-tokens.ts: 30 days, renewed by each refresh), so
 * both end together: by age, or when the member clears the site's cookies. A device whose twin
 * is gone has no refresh cookie to trade, and asking would only earn a 400 in the console.
 */
export const REFRESH_MARK_COOKIE = 'vidi_signed_in';
const REFRESH_MARK_MAX_AGE_S = 30 * 24 * 60 * 60;
// Set once this device writes the twin: a profile cached before that (an earlier version of the
// app) still gets its refresh, and the twin from then on.
const MARKING_KEY = 'vidi.session.marked';

/** Called where the server has just set the refresh cookie (true) or the session ended (false). */
export function markRefreshCookie(present: boolean): void {
  if (typeof document === 'undefined') return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${REFRESH_MARK_COOKIE}=1; Path=/; SameSite=Strict; Max-Age=${present ? REFRESH_MARK_MAX_AGE_S : 0}${secure}`;
  try {
    if (present) localStorage.setItem(MARKING_KEY, '1');
  } catch {
    // Without storage the refresh is simply always tried, as before the twin.
  }
}

/** False when this device's refresh cookie has certainly gone (its twin expired or was cleared). */
export function mayHoldRefreshCookie(): boolean {
  if (typeof document === 'undefined') return true;
  if (document.cookie.split(';').some((c) => c.trim() === `${REFRESH_MARK_COOKIE}=1`)) return true;
  try {
    return localStorage.getItem(MARKING_KEY) === null;
  } catch {
    return true;
  }
}
