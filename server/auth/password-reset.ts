import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AppDeps } from '../context';
import { ApiError } from '../http/errors';
import { passwordResetMail } from '../mail/account-mails';
import { hashPassword } from './password';
import { revokeAllRefreshTokens } from './refresh-tokens';
import { hashSecretToken, newSecretToken, spendOpenTokens, spendToken } from './secret-tokens';

export const RESET_PASSWORD_PURPOSE = 'reset_password';
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

type Db = Kysely<Database> | Transaction<Database>;

export const invalidResetToken = () => new ApiError(400, 'invalid_reset_token', 'This reset link is invalid or has expired. Ask for a new one.');

export function resetLink(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Mails a reset link when the address has an account; nothing otherwise. The caller answers 202
 * without waiting for this, so the time of the answer says nothing about the address either.
 */
export async function mailResetLink(deps: AppDeps, email: string): Promise<void> {
  const profile = await deps.db.selectFrom('profiles').select(['id', 'name']).where('email', '=', email).executeTakeFirst();
  if (!profile) return;
  const token = newSecretToken();
  const now = deps.now();
  await deps.db
    .insertInto('email_tokens')
    .values({
      token_hash: hashSecretToken(token),
      user_id: profile.id,
      purpose: RESET_PASSWORD_PURPOSE,
      created_at: now,
      expires_at: now + RESET_TOKEN_TTL_MS,
      used_at: null,
    })
    .execute();
  await deps.mailer.send(passwordResetMail({ to: email, name: profile.name, link: resetLink(deps.config.publicUrl, token) }));
}

async function openResetToken(db: Db, tokenHash: string, now: number): Promise<{ user_id: string } | undefined> {
  return db
    .selectFrom('email_tokens')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', RESET_PASSWORD_PURPOSE)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Sets a password and ends sessions: all of them, or all but `keepSessionId` (a change keeps the caller's). */
export async function setPassword(trx: Transaction<Database>, userId: string, passwordHash: string, now: number, keepSessionId?: string): Promise<void> {
  await trx
    .insertInto('credentials')
    .values({ user_id: userId, password_hash: passwordHash, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: now }))
    .execute();
  await revokeAllRefreshTokens(trx, userId, now, keepSessionId);
}

/**
 * Spends the reset token and sets the new password; every session of the account ends. The token
 * is checked before the hash (a made-up token costs no scrypt work) and spent by a conditional
 * UPDATE in the transaction (of concurrent resets with one token exactly one wins, on either
 * engine). Every other reset link of the account is spent too, and the address counts as
 * confirmed: the link reached its mailbox.
 */
export async function resetPassword(deps: AppDeps, token: string, password: string): Promise<{ userId: string; email: string }> {
  const tokenHash = hashSecretToken(token);
  if (!(await openResetToken(deps.db, tokenHash, deps.now()))) throw invalidResetToken();
  const passwordHash = await hashPassword(password, deps.passwordParams);
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.now();
    const row = await spendToken(trx, tokenHash, RESET_PASSWORD_PURPOSE, now);
    if (!row) throw invalidResetToken();
    await spendOpenTokens(trx, row.user_id, RESET_PASSWORD_PURPOSE, now);
    await setPassword(trx, row.user_id, passwordHash, now);
    const profile = await trx.selectFrom('profiles').select(['email', 'email_verified_at']).where('id', '=', row.user_id).executeTakeFirstOrThrow();
    if (profile.email_verified_at === null)
      await trx.updateTable('profiles').set({ email_verified_at: now, updated_at: now }).where('id', '=', row.user_id).execute();
    return { userId: row.user_id, email: profile.email };
  });
}
