import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { Database, NotificationsTable } from '#db/schema';
import type { NotificationItem } from '#sync/protocol/notifications';
import { NOTIFICATIONS_WINDOW } from '#sync/protocol/limits';

export const NOTIFICATION_COLUMNS = [
  'id',
  'kind',
  'video_id',
  'count',
  'actor_name',
  'detail',
  'amount_paise',
  'rank',
  'comment_id',
  'actor_id',
  'created_at',
  'updated_at',
  'read_at',
] as const;
type Row = Pick<NotificationsTable, Exclude<(typeof NOTIFICATION_COLUMNS)[number], 'comment_id' | 'actor_id'>> & {
  comment_id: string | null;
  actor_id: string | null;
  actor_handle: string | null;
};

/**
 * The rows with their actor's handle as it is now (a follow links to the follower's page, and a
 * handle can change after the notification was written): one primary-key lookup per row.
 */
export function selectNotificationItems(db: Kysely<Database> | Transaction<Database>) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('profiles as actor', 'actor.id', 'n.actor_id')
    .select([...NOTIFICATION_COLUMNS.map((c) => `n.${c}` as const), 'actor.handle as actor_handle']);
}

/** A row as pull, the live stream and the push payload carry it. */
export function toNotificationItem(r: Row): NotificationItem {
  return {
    id: r.id,
    kind: r.kind as NotificationItem['kind'],
    video_id: r.video_id,
    count: Number(r.count),
    actor_name: r.actor_name,
    actor_handle: r.actor_handle,
    detail: r.detail,
    amount_paise: r.amount_paise === null ? null : Number(r.amount_paise),
    rank: r.rank === null ? null : Number(r.rank),
    comment_id: r.comment_id,
    actor_id: r.actor_id,
    created_at: new Date(Number(r.created_at)).toISOString(),
    updated_at: new Date(Number(r.updated_at)).toISOString(),
    read: r.read_at !== null,
  };
}

type Eb = ExpressionBuilder<Database & { n: Database['notifications'] }, 'n'>;

/**
 * The reader is not shown what a member did whom they blocked or muted, or who blocked them
 * (docs/decisions/0024-safety.md): those written before the block or mute stay in the table and
 * come back with an unblock. Three primary-key probes per row with an actor.
 */
export function shownTo(userId: string) {
  return (eb: Eb) =>
    eb.or([
      eb('n.actor_id', 'is', null),
      eb.not(
        eb.or([
          eb.exists(eb.selectFrom('blocks').select('blocked_id').where('blocker_id', '=', userId).whereRef('blocked_id', '=', 'n.actor_id')),
          eb.exists(eb.selectFrom('blocks').select('blocked_id').whereRef('blocker_id', '=', 'n.actor_id').where('blocked_id', '=', userId)),
          eb.exists(eb.selectFrom('mutes').select('muted_id').where('muter_id', '=', userId).whereRef('muted_id', '=', 'n.actor_id')),
        ]),
      ),
    ]);
}

/** The member's newest notifications (a full pull's list). */
export async function readNewestNotifications(trx: Transaction<Database>, userId: string): Promise<NotificationItem[]> {
  const rows = await selectNotificationItems(trx)
    .where('n.user_id', '=', userId)
    .where(shownTo(userId))
    .orderBy('n.updated_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(NOTIFICATIONS_WINDOW)
    .execute();
  return rows.map(toNotificationItem);
}

/** The member's changed notifications (`byMember`: ChangeSets.changedNotifications); no query when none changed. */
export async function readOwnNotifications(
  trx: Transaction<Database>,
  userId: string,
  byMember: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<NotificationItem[]> {
  const ids = byMember.get(userId);
  if (!ids?.size) return [];
  const rows = await selectNotificationItems(trx)
    .where('n.user_id', '=', userId)
    .where('n.id', 'in', [...ids])
    .where(shownTo(userId))
    .execute();
  return rows.map(toNotificationItem);
}
