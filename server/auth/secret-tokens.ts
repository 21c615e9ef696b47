import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: the refresh and e-mail tokens handed to clients. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Only this hash is stored, so a leaked database (or backup) holds no usable token. A plain sha256
 * is enough here: the input has 256 bits of entropy, unlike a password.
 */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Spends every open e-mail token of one purpose of a user: using one link spends its siblings. */
export async function spendOpenTokens(trx: Transaction<Database>, userId: string, purpose: string, now: number): Promise<void> {
  await trx
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/**
 * Spends one open (unused, unexpired) e-mail token and says whose it was, or undefined. One
 * conditional UPDATE, so of concurrent uses of one link exactly one gets the user: on PostgreSQL
 * the others wait for the winner's row lock and then find it used.
 */
export async function spendToken(
  db: Kysely<Database> | Transaction<Database>,
  tokenHash: string,
  purpose: string,
  now: number,
): Promise<{ user_id: string } | undefined> {
  return db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
}
