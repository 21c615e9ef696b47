import type { Transaction } from 'kysely';
import { lockMember } from '#db/locks';
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
 * Spends one open (unused, unexpired) e-mail token and says whose it was, or undefined. The spend
 * is one conditional UPDATE, so of concurrent uses of one link exactly one gets the user: on
 * PostgreSQL the others wait for the winner's row lock and then find it used. The member's lock is
 * taken first: a link and its sibling used at once would otherwise each hold one token and wait
 * for the other in spendOpenTokens (a deadlock).
 */
export async function spendToken(trx: Transaction<Database>, tokenHash: string, purpose: string, now: number): Promise<{ user_id: string } | undefined> {
  const owner = await trx.selectFrom('email_tokens').select('user_id').where('token_hash', '=', tokenHash).where('purpose', '=', purpose).executeTakeFirst();
  if (!owner) return undefined;
  await lockMember(trx, owner.user_id);
  return trx
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
}
