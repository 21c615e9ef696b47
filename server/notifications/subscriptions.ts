import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '#db/schema';
import { NOTIFICATION_PREFS } from '#sync/protocol/notifications';
import type { NotificationPrefs, PushSubscriptionBody } from '#sync/rest-api/notifications';

type Db = Kysely<Database>;

/** Devices kept per member: a new one past this replaces the least recently registered. */
export const MAX_SUBSCRIPTIONS_PER_MEMBER = 10;

/**
 * This device's subscription, one row per endpoint, belonging to the session that registered it
 * (`sessionId`, the refresh-token family): it ends with that session (server/auth/refresh-tokens.ts).
 * Registering an endpoint again refreshes its keys, its owner and its session (a browser profile
 * that changed hands, a new sign-in). Returns the row's id.
 */
export async function saveSubscription(
  db: Db,
  owner: { userId: string; sessionId: string | undefined },
  sub: PushSubscriptionBody,
  now: number,
): Promise<string> {
  const { userId } = owner;
  const session_id = owner.sessionId ?? null;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('push_subscriptions')
      .values({
        id: randomUUID(),
        user_id: userId,
        session_id,
        endpoint: sub.endpoint,
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, session_id, p256dh: sub.keys.p256dh, auth: sub.keys.auth, updated_at: now }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const kept = await trx
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_SUBSCRIPTIONS_PER_MEMBER)
      .execute();
    await trx
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', userId)
      .where(
        'id',
        'not in',
        kept.map((k) => k.id),
      )
      .execute();
    return row.id;
  });
}

export interface LiveSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * The member's devices whose session is still open: every way a session ends deletes its
 * subscriptions, and this also skips one whose session ended some other way (expired, or a row
 * written before). A subscription made without a session (an access token that names none) follows
 * the member's sessions as a whole.
 */
export async function liveSubscriptionsOf(db: Db, userId: string, now: number): Promise<LiveSubscription[]> {
  const rows = await db
    .selectFrom('push_subscriptions as s')
    .select(['s.id', 's.endpoint', 's.p256dh', 's.auth'])
    .where('s.user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('s.session_id', 'is', null),
        eb.exists(
          eb
            .selectFrom('refresh_tokens as r')
            .select(sql<number>`1`.as('live'))
            .whereRef('r.family_id', '=', 's.session_id')
            .where('r.revoked_at', 'is', null)
            .where('r.expires_at', '>', now),
        ),
      ]),
    )
    .execute();
  return rows.map((r) => ({ id: r.id, endpoint: r.endpoint, keys: { p256dh: r.p256dh, auth: r.auth } }));
}

/** Only the caller's own row goes; another member's endpoint is left alone. Answers whether one went. */
export async function deleteSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const r = await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

const ALL_ON: NotificationPrefs = { likes: true, comments: true, processing: true, prizes: true };

/** The member's choices; no row is every kind on. */
export async function readPrefs(db: Db, userId: string): Promise<NotificationPrefs> {
  const row = await db.selectFrom('notification_prefs').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return { ...ALL_ON };
  return Object.fromEntries(NOTIFICATION_PREFS.map((p) => [p, Number(row[p]) === 1])) as NotificationPrefs;
}

/** Applies a subset of choices (only those columns are written, so two devices' changes both stand); answers the whole set. */
export async function writePrefs(
  db: Db,
  userId: string,
  patch: { [K in keyof NotificationPrefs]?: boolean | undefined },
  now: number,
): Promise<NotificationPrefs> {
  const changed = Object.fromEntries(NOTIFICATION_PREFS.filter((p) => patch[p] !== undefined).map((p) => [p, patch[p] ? 1 : 0]));
  const first = Object.fromEntries(NOTIFICATION_PREFS.map((p) => [p, patch[p] === false ? 0 : 1])) as Record<(typeof NOTIFICATION_PREFS)[number], number>;
  await db
    .insertInto('notification_prefs')
    .values({ user_id: userId, ...first, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...changed, updated_at: now }))
    .execute();
  return readPrefs(db, userId);
}
