import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Profile } from '#db/schema';
import type { AuthSession, PublicUser } from '#sync/rest-api/auth';
import type { AppDeps, AppEnv } from '../context';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-tokens';
import { REFRESH_TOKEN_TTL_MS, type IssuedRefreshToken } from './refresh-tokens';

export const REFRESH_COOKIE = 'vidi_refresh';
/** The cookie only travels to the endpoints that use it (refresh, logout), never to the rest of the API. */
const REFRESH_COOKIE_PATH = '/api/auth';

export function toPublicUser(p: Profile): PublicUser {
  return {
    id: p.id,
    email: p.email,
    name: p.name,
    is_admin: p.is_admin === 1,
    is_active: p.is_active === 1,
    account_status: p.account_status === 'pending_payment' ? 'pending_payment' : 'active',
    created_at: p.created_at,
  };
}

export async function buildSession(deps: AppDeps, profile: Profile, refresh: IssuedRefreshToken): Promise<AuthSession> {
  const access = await deps.tokens.issue(profile.id, refresh.familyId);
  return {
    access_token: access.token,
    refresh_token: refresh.token,
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: access.expiresAt,
    token_type: 'bearer',
    user: toPublicUser(profile),
  };
}

const cookieOptions = (c: Context<AppEnv>) => ({
  path: REFRESH_COOKIE_PATH,
  httpOnly: true,
  sameSite: 'Strict' as const,
  secure: c.var.deps.config.publicUrl.startsWith('https:'),
});

export function setRefreshCookie(c: Context<AppEnv>, token: string): void {
  setCookie(c, REFRESH_COOKIE, token, { ...cookieOptions(c), maxAge: REFRESH_TOKEN_TTL_MS / 1000 });
}

export function clearRefreshCookie(c: Context<AppEnv>): void {
  deleteCookie(c, REFRESH_COOKIE, cookieOptions(c));
}

/** The token from the body when given, else from the cookie. */
export function presentedRefreshToken(c: Context<AppEnv>, fromBody: string | undefined): string | undefined {
  return fromBody ?? getCookie(c, REFRESH_COOKIE);
}
