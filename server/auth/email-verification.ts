import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AppDeps } from '../context';
import { verificationMail } from '../mail/verification-mail';
import { hashSecretToken, newSecretToken, spendOpenTokens, spendToken } from './secret-tokens';

export const VERIFY_EMAIL_PURPOSE = 'verify_email';
export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

type Db = Kysely<Database> | Transaction<Database>;

/** Stores a new single-use token (hashed) and returns the plain one for the link. */
export async function createVerificationToken(db: Db, userId: string, now: number): Promise<string> {
  const token = newSecretToken();
  await db
    .insertInto('email_tokens')
    .values({
      token_hash: hashSecretToken(token),
      user_id: userId,
      purpose: VERIFY_EMAIL_PURPOSE,
      created_at: now,
      expires_at: now + VERIFY_TOKEN_TTL_MS,
      used_at: null,
    })
    .execute();
  return token;
}

export function verificationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/api/auth/verify?token=${encodeURIComponent(token)}`;
}

/**
 * Marks the address verified when the token is known, unused and unexpired; of concurrent uses of
 * one link exactly one answers true. Every other verification token of the user is spent with it,
 * so older mails' links stop working too.
 */
export async function consumeVerificationToken(db: Kysely<Database>, token: string, now: number): Promise<boolean> {
  const tokenHash = hashSecretToken(token);
  return db.transaction().execute(async (trx) => {
    const row = await spendToken(trx, tokenHash, VERIFY_EMAIL_PURPOSE, now);
    if (!row) return false;
    await spendOpenTokens(trx, row.user_id, VERIFY_EMAIL_PURPOSE, now);
    await trx
      .updateTable('profiles')
      .set({ email_verified_at: now, updated_at: now })
      .where('id', '=', row.user_id)
      .where('email_verified_at', 'is', null)
      .execute();
    return true;
  });
}

/**
 * Sends the mail; a failing mail server must not fail the sign-up that already committed, so the
 * error is logged and reported as `false` (the user can ask for a resend).
 */
export async function sendVerificationMail(deps: AppDeps, to: { email: string; name: string }, token: string): Promise<boolean> {
  const link = verificationLink(deps.config.publicUrl, token);
  try {
    await deps.mailer.send(verificationMail({ to: to.email, name: to.name, link }));
    return true;
  } catch (err) {
    deps.log.error(`verification mail to ${to.email} failed`, err);
    return false;
  }
}
