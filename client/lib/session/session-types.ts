export interface SessionUser {
  id: string;
  email: string;
  name: string;
  is_admin: boolean;
  is_active: boolean;
  account_status: string;
  created_at: number | string;
}

export interface AuthSession {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at: number;
  token_type: string;
  user: SessionUser;
}

export type SessionState =
  | { status: 'loading' }
  | { status: 'signedOut' }
  /** `offline`: restored from the cached profile because the server could not be reached; no access token yet. */
  | { status: 'signedIn'; user: SessionUser; offline: boolean };

export function isAuthSession(v: unknown): v is AuthSession {
  const s = v as Partial<AuthSession> | null;
  return !!s && typeof s.access_token === 'string' && typeof s.user === 'object' && s.user !== null && typeof s.user.id === 'string';
}

/**
 * When the access token expires on this device's clock: now + expires_in, so a device clock that differs
 * from the server's neither refreshes too late nor on every tick. expires_at (seconds or ms) is the fallback.
 */
export function expiryMs(s: AuthSession, now = Date.now()): number {
  if (typeof s.expires_in === 'number' && s.expires_in > 0) return now + s.expires_in * 1000;
  if (typeof s.expires_at === 'number' && s.expires_at > 0) return s.expires_at < 1e12 ? s.expires_at * 1000 : s.expires_at;
  return now;
}
