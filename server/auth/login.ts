import type { LoginBody } from '#sync/rest-api/auth';
import type { Profile } from '#db/schema';
import type { AppDeps } from '../context';
import { ApiError, forbidden, unauthorized } from '../http/errors';
import { reservePasswordAttempt, type AuthLimits } from '../security/auth-limits';
import { dummyPasswordHash, verifyPassword } from './password';
import { liveSessionOfToken } from './refresh-tokens';

export type LoginOutcome = { ok: true; profile: Profile } | { ok: false; paymentRequired: { userId: string } };

const invalidCredentials = () => unauthorized('Invalid login credentials', 'invalid_credentials');

/** Runs `check` (a password hash) under a reservation made before it; a check that never ran gives it back. */
export async function checkedUnder(attempt: { release(now: number): Promise<void> }, now: () => number, check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch (err) {
    await attempt.release(now());
    throw err;
  }
}

/**
 * Checks e-mail and password under the brute-force limits. An unknown address and a wrong
 * password answer alike, after the same scrypt work; the account state (suspended, unverified,
 * unpaid) is only revealed to a caller who knows the password. `refreshToken` is the session the
 * device already holds (cookie): when it is one of this account's, the device has its own budget.
 */
export async function checkLogin(deps: AppDeps, limits: AuthLimits, body: LoginBody, ip: string, refreshToken: string | undefined): Promise<LoginOutcome> {
  const row = await deps.db
    .selectFrom('profiles')
    .leftJoin('credentials', 'credentials.user_id', 'profiles.id')
    .selectAll('profiles')
    .select('credentials.password_hash')
    .where('profiles.email', '=', body.email)
    .executeTakeFirst();
  const session = row && refreshToken ? await liveSessionOfToken(deps.db, refreshToken, deps.now()) : null;
  const deviceKey = session && session.userId === row?.id ? session.familyId : undefined;
  // Counted before the hash: concurrent guesses cannot all pass.
  const attempt = await reservePasswordAttempt(limits, { account: body.email, ip, deviceKey }, deps.now());
  const passwordOk = await checkedUnder(attempt, deps.now, async () =>
    verifyPassword(body.password, row?.password_hash ?? (await dummyPasswordHash(deps.passwordParams))),
  );
  if (!row || !row.password_hash || !passwordOk) throw invalidCredentials();
  await attempt.succeeded(deps.now());

  const { password_hash: _hash, ...profile } = row;
  if (!profile.is_active) throw forbidden('Your account is suspended.', 'account_suspended');
  if (profile.account_status === 'pending_payment') return { ok: false, paymentRequired: { userId: profile.id } };
  if (profile.email_verified_at === null) {
    throw new ApiError(403, 'email_not_verified', 'Please verify your email address before signing in. Check your inbox for the link.');
  }
  return { ok: true, profile };
}
