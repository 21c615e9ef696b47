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
