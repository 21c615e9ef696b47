import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { lockScoringExclusive } from '#db/locks';
import { onPostgres } from '#db/migrations/portable';
import type { Changes } from '../changes/changes';
import { badRequest, notFound } from '../http/errors';
import { onUserReactivated, onUserSuspended } from '../rewards/member-status';
import { eligibleUsers } from '../rewards/score-events';
import { containsPattern, encodeTimeCursor, type TimeCursor } from './cursor';
import { targetIsAdmin } from './delete-user';
import type { AdminUser } from '#sync/rest-api/admin';

/**
 * Newest first, keyset-paged over the (created_at, id) index, so page N costs the same as page 1
 * with 100 000 users. A search matches the name or e-mail anywhere (case-insensitive for ASCII:
 * SQLite's LIKE; on PostgreSQL ILIKE over the "C"-collated columns, which folds ASCII only too,
 * served by the trigram indexes of migration 0009).
 */
export async function listUsers(db: Kysely<Database>, opts: { limit: number; cursor: TimeCursor | null; search: string }) {
  const rows = await usersPageQuery(db, opts).execute();
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return {
    items: page.map((r): AdminUser => ({
      id: r.id,
      email: r.email,
      name: r.name,
      is_admin: r.is_admin === 1,
      is_active: r.is_active === 1,
      account_status: r.account_status,
      email_verified: r.email_verified_at !== null,
      created_at: Number(r.created_at),
    })),
    next_cursor: rows.length > opts.limit && last ? encodeTimeCursor({ createdAt: Number(last.created_at), id: last.id }) : null,
  };
}

/** One page (plus one row, to know whether another follows); exported so a test can check its query plan. */
export function usersPageQuery(db: Kysely<Database>, opts: { limit: number; cursor: TimeCursor | null; search: string }) {
  let q = db
    .selectFrom('profiles')
    .select(['id', 'email', 'name', 'is_admin', 'is_active', 'account_status', 'email_verified_at', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit + 1);
  if (opts.cursor) {
    const { createdAt, id } = opts.cursor;
    q = q.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
  }
  if (opts.search) {
    const pattern = containsPattern(opts.search);
    const like = onPostgres(db as Kysely<unknown>) ? sql`ILIKE` : sql`LIKE`;
    q = q.where(sql<boolean>`(name ${like} ${pattern} ESCAPE '\\' OR email ${like} ${pattern} ESCAPE '\\')`);
  }
  return q;
}

/**
 * Suspends or reactivates a user. Suspension also revokes every refresh token, so no session can be
 * renewed; requireUser refuses their current access tokens because it reads is_active per request.
 * The leaderboards follow (a suspended member neither appears nor counts). Suspending a suspended
 * user changes nothing.
 */
export async function setUserActive(
  trx: Transaction<Database>,
  changes: Changes,
  actorId: string,
  userId: string,
  active: boolean,
): Promise<{ changed: boolean; scoresChanged: boolean; email: string }> {
  const now = changes.now;
  // Eligibility changes: no push may be moving points for this member until commit.
  await lockScoringExclusive(trx);
  if (userId === actorId) throw badRequest(active ? 'You cannot reactivate yourself.' : 'You cannot suspend yourself.', 'cannot_target_self');
  const user = await trx.selectFrom('profiles').select(['id', 'email', 'is_active', 'is_admin']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound('No such user.', 'user_not_found');
  if (!active && user.is_admin) throw targetIsAdmin('suspended');
  if ((user.is_active === 1) === active) return { changed: false, scoresChanged: false, email: user.email };
  await trx
    .updateTable('profiles')
    .set({ is_active: active ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
  let scoresChanged: boolean;
  if (active) {
    // An unpaid account is not eligible yet: it starts counting when its payment activates it.
    scoresChanged = (await eligibleUsers(trx, [userId])).size > 0 && (await onUserReactivated(trx, userId, changes));
  } else {
    await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    scoresChanged = await onUserSuspended(trx, userId, changes);
  }
  changes.profile(userId);
  return { changed: true, scoresChanged, email: user.email };
}
