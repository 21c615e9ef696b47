import type { LoginBody } from '../../sync/api/auth';
import type { Profile } from '../../db/schema';
import type { AppDeps } from '../context';
import { ApiError, forbidden, unauthorized } from '../http/errors';
import { refuseIfBlocked, type AuthLimits } from '../security/auth-limits';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password';

export type LoginOutcome = { ok: true; profile: Profile } | { ok: false; paymentRequired: { userId: string } };

const invalidCredentials = () => unauthorized('Invalid login credentials', 'invalid_credentials');

/**
 * Checks e-mail and password under the brute-force limits. An unknown address and a wrong
 * password answer alike, after the same scrypt work; the account state (suspended, unverified,
 * unpaid) is only revealed to a caller who knows the password.
 */
export async function checkLogin(deps: AppDeps, limits: AuthLimits, body: LoginBody, ip: string): Promise<LoginOutcome> {
  const now = deps.now();
  const lockMessage = 'Too many failed sign-in attempts. Please try again later.';
  refuseIfBlocked([limits.loginFailuresPerAccount.peek(body.email, now), limits.loginFailuresPerIp.peek(ip, now)], lockMessage);

  const row = await deps.db
    .selectFrom('profiles')
    .leftJoin('credentials', 'credentials.user_id', 'profiles.id')
    .selectAll('profiles')
    .select('credentials.password_hash')
    .where('profiles.email', '=', body.email)
    .executeTakeFirst();
  const passwordOk = await verifyPassword(body.password, row?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!row || !row.password_hash || !passwordOk) {
    const at = deps.now();
    limits.loginFailuresPerAccount.hit(body.email, at);
    limits.loginFailuresPerIp.hit(ip, at);
    throw invalidCredentials();
  }
  limits.loginFailuresPerAccount.reset(body.email);

  const { password_hash: _hash, ...profile } = row;
  if (!profile.is_active) throw forbidden('Your account is suspended.', 'account_suspended');
  if (profile.account_status === 'pending_payment') return { ok: false, paymentRequired: { userId: profile.id } };
  if (profile.email_verified_at === null) {
    throw new ApiError(403, 'email_not_verified', 'Please verify your email address before signing in. Check your inbox for the link.');
  }
  return { ok: true, profile };
}
