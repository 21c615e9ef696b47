import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, RefreshTokensTable } from '#db/schema';
import { lockMember } from '#db/locks';
import { hashSecretToken, newSecretToken } from './secret-tokens';
import { retryTransactionConflicts } from '../changes/conflict-retry';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A spent token presented again this soon after its rotation is taken for a lost response (the
 * client never saw the new token) and answered with a fresh token of the same family, instead of
 * being treated as theft.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

type Db = Kysely<Database> | Transaction<Database>;

export interface IssuedRefreshToken {
  token: string;
  familyId: string;
  expiresAt: number;
}

async function insertToken(db: Db, userId: string, familyId: string, now: number): Promise<IssuedRefreshToken & { id: string }> {
  const token = newSecretToken();
  const id = randomUUID();
  const expiresAt = now + REFRESH_TOKEN_TTL_MS;
  await db
    .insertInto('refresh_tokens')
    .values({
      id,
      user_id: userId,
      family_id: familyId,
      token_hash: hashSecretToken(token),
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
      revoked_at: null,
      replaced_by: null,
    })
    .execute();
  return { id, token, familyId, expiresAt };
}

/** A new family: one per sign-in. Also drops the user's expired tokens, which nothing can use any more. */
export async function startRefreshFamily(db: Db, userId: string, now: number): Promise<IssuedRefreshToken> {
  await db.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
  return insertToken(db, userId, randomUUID(), now);
}

export type RotateResult = { ok: true; userId: string; issued: IssuedRefreshToken } | { ok: false; reason: 'invalid' | 'expired' | 'reused' };

/**
 * Spends `presented` and issues its successor in the same family, in one transaction. The spend is
 * a conditional UPDATE (only while the token is unused and not revoked), so of concurrent
 * rotations of one token exactly one spends it, on SQLite (one transaction at a time) and on
 * PostgreSQL (the losers' UPDATE waits for the winner's row lock, then matches nothing): the
 * losers are answered as spent tokens are (the grace window, or reuse). `allowUser` runs first and
 * may throw to refuse the user (suspended, unpaid) without spending anything.
 */
export async function rotateRefreshToken(
  db: Kysely<Database>,
  presented: string,
  now: number,
  allowUser: (trx: Transaction<Database>, userId: string) => Promise<void>,
): Promise<RotateResult> {
  const tokenHash = hashSecretToken(presented);
  return db.transaction().execute(async (trx): Promise<RotateResult> => {
    const row = await tokenRow(trx, tokenHash);
    if (!row || row.revoked_at !== null) return { ok: false, reason: 'invalid' };
    if (row.expires_at <= now) return { ok: false, reason: 'expired' };
    if (row.used_at === null) {
      await allowUser(trx, row.user_id);
      const spent = await trx
        .updateTable('refresh_tokens')
        .set({ used_at: now })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) === 1) {
        const issued = await insertToken(trx, row.user_id, row.family_id, now);
        await trx.updateTable('refresh_tokens').set({ replaced_by: issued.id }).where('id', '=', row.id).execute();
        return { ok: true, userId: row.user_id, issued };
      }
      // A concurrent rotation spent it first (or a reuse revoked the family): read what it left.
      const after = await tokenRow(trx, tokenHash);
      if (!after || after.revoked_at !== null || after.used_at === null) return { ok: false, reason: 'invalid' };
      return answerSpent(trx, after, after.used_at, now, allowUser);
    }
    return answerSpent(trx, row, row.used_at, now, allowUser);
  });
}

type TokenRow = Pick<Selectable<RefreshTokensTable>, 'id' | 'user_id' | 'family_id' | 'expires_at' | 'used_at' | 'revoked_at'>;

function tokenRow(trx: Transaction<Database>, tokenHash: string): Promise<TokenRow | undefined> {
  return trx
    .selectFrom('refresh_tokens')
    .select(['id', 'user_id', 'family_id', 'expires_at', 'used_at', 'revoked_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * A spent token presented again: within the grace window a lost response or a second tab, answered
 * with another successor (the earlier one stays valid: another tab may hold it); later, theft, and
 * the whole family is revoked.
 */
async function answerSpent(
  trx: Transaction<Database>,
  row: TokenRow,
  usedAt: number,
  now: number,
  allowUser: (trx: Transaction<Database>, userId: string) => Promise<void>,
): Promise<RotateResult> {
  if (now - usedAt > REFRESH_REUSE_GRACE_MS) {
    // Concurrent presentations of a stolen token revoke one after the other (PostgreSQL): two
    // UPDATEs of the family's rows taking their row locks in different orders could deadlock.
    await lockMember(trx, row.user_id);
    await revokeFamily(trx, row.family_id, now);
    return { ok: false, reason: 'reused' };
  }
  await allowUser(trx, row.user_id);
  return { ok: true, userId: row.user_id, issued: await insertToken(trx, row.user_id, row.family_id, now) };
}

/**
 * A revocation on its own (not inside a caller's transaction) is one statement; on PostgreSQL two of
 * them (a logout and a logout-everywhere) lock token rows through different indexes and may
 * deadlock. The one PostgreSQL undid is run again; inside a transaction, the caller's retry does it.
 */
function revocation(db: Db, run: () => Promise<unknown>): Promise<unknown> {
  return db.isTransaction ? run() : retryTransactionConflicts(run);
}

export async function revokeFamily(db: Db, familyId: string, now: number): Promise<void> {
  await revocation(db, async () => {
    await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
    // The session's push subscriptions end with it (docs/notifications.md, "Sessions").
    await db.deleteFrom('push_subscriptions').where('session_id', '=', familyId).execute();
  });
}

/** Logout: revokes the family of `presented`, if it is one of ours, and says whose session that was. */
export async function revokeFamilyOfToken(db: Kysely<Database>, presented: string, now: number): Promise<{ userId: string; familyId: string } | null> {
  const row = await db.selectFrom('refresh_tokens').select(['family_id', 'user_id']).where('token_hash', '=', hashSecretToken(presented)).executeTakeFirst();
  if (!row) return null;
  await revokeFamily(db, row.family_id, now);
  return { userId: row.user_id, familyId: row.family_id };
}

/** The session `presented` belongs to when it is still open (not revoked, not expired), else null. */
export async function liveSessionOfToken(db: Db, presented: string, now: number): Promise<{ userId: string; familyId: string } | null> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select(['family_id', 'user_id'])
    .where('token_hash', '=', hashSecretToken(presented))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? { userId: row.user_id, familyId: row.family_id } : null;
}

/**
 * Every session of a user (password reset, logout everywhere, suspension), or every one but
 * `exceptFamilyId` (a password change keeps the session that made it).
 */
export async function revokeAllRefreshTokens(db: Db, userId: string, now: number, exceptFamilyId?: string): Promise<void> {
  let q = db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptFamilyId !== undefined) q = q.where('family_id', '!=', exceptFamilyId);
  // With them go their push subscriptions, and those registered without a session (docs/notifications.md, "Sessions").
  let subs = db.deleteFrom('push_subscriptions').where('user_id', '=', userId);
  if (exceptFamilyId !== undefined) subs = subs.where((eb) => eb.or([eb('session_id', 'is', null), eb('session_id', '!=', exceptFamilyId)]));
  await revocation(db, async () => {
    await q.execute();
    await subs.execute();
  });
}
