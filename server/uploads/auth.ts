import type { AppDeps, AuthUser } from '../context';
import { forbidden, unauthorized } from '../http/errors';

/**
 * The tus endpoint is not a Hono route (it sits in front of Hono), so it cannot use requireUser;
 * this applies the same rules: a valid access token of an active, paid-up user, read fresh from
 * the profile so a suspension stops an upload in progress.
 */
export async function authenticateBearer(deps: AppDeps, header: string | null): Promise<AuthUser> {
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header ?? '');
  if (!match?.[1]) throw unauthorized();
  const userId = await deps.tokens.verify(match[1]);
  if (!userId) throw unauthorized('Your session has expired. Please sign in again.', 'invalid_token');
  const profile = await deps.db
    .selectFrom('profiles')
    .select(['id', 'email', 'name', 'is_admin', 'is_active', 'account_status'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!profile) throw unauthorized('Your session has expired. Please sign in again.', 'invalid_token');
  if (!profile.is_active) throw forbidden('Your account is suspended.', 'account_suspended');
  if (profile.account_status === 'pending_payment') throw forbidden('Complete the entry fee payment first.', 'payment_required');
  return { id: profile.id, email: profile.email, name: profile.name, isAdmin: profile.is_admin === 1 };
}
