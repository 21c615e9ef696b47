import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { hashSecretToken, newSecretToken } from './secret-tokens';

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
 * Spends `presented` and issues its successor in the same family, all in one transaction (the
 * SQLite connection serialises transactions, so two concurrent rotations of one token cannot both
 * see it unused). `allowUser` runs first and may throw to refuse the user (suspended, unpaid)
 * without spending anything.
 */
export async function rotateRefreshToken(
  db: Kysely<Database>,
  presented: string,
  now: number,
  allowUser: (trx: Transaction<Database>, userId: string) => Promise<void>,
): Promise<RotateResult> {
  const tokenHash = hashSecretToken(presented);
  return db.transaction().execute(async (trx): Promise<RotateResult> => {
    const row = await trx.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row || row.revoked_at !== null) return { ok: false, reason: 'invalid' };
    if (row.expires_at <= now) return { ok: false, reason: 'expired' };
    if (row.used_at !== null) {
      if (now - row.used_at > REFRESH_REUSE_GRACE_MS) {
        await revokeFamily(trx, row.family_id, now);
        return { ok: false, reason: 'reused' };
      }
      await allowUser(trx, row.user_id);
      // Lost response: the earlier successor stays valid too (another tab may hold it).
      return { ok: true, userId: row.user_id, issued: await insertToken(trx, row.user_id, row.family_id, now) };
    }
    await allowUser(trx, row.user_id);
    const issued = await insertToken(trx, row.user_id, row.family_id, now);
    await trx.updateTable('refresh_tokens').set({ used_at: now, replaced_by: issued.id }).where('id', '=', row.id).execute();
    return { ok: true, userId: row.user_id, issued };
  });
}

export async function revokeFamily(db: Db, familyId: string, now: number): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
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
  await q.execute();
}
