import type { AppDeps, AuthUser } from '../context';
import { unauthorized } from '../http/errors';
import { userOfAccessToken } from '../auth/token-user';

/**
 * The tus endpoint is not a Hono route (it sits in front of Hono), so it cannot use requireUser;
 * this applies the same rules: a valid access token of an active, paid-up user, read fresh from
 * the profile so a suspension stops an upload in progress.
 */
export async function authenticateBearer(deps: AppDeps, header: string | null): Promise<AuthUser> {
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header ?? '');
  if (!match?.[1]) throw unauthorized();
  return userOfAccessToken(deps, match[1]);
}
