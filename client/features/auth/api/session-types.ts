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

/** expires_at may come in seconds (JWT style) or milliseconds; the app works in ms. */
export function expiryMs(s: AuthSession, now = Date.now()): number {
  if (typeof s.expires_at === 'number' && s.expires_at > 0) return s.expires_at < 1e12 ? s.expires_at * 1000 : s.expires_at;
  return now + (s.expires_in || 0) * 1000;
}
