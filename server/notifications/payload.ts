import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { PushPayload } from '#sync/protocol/notifications';
import { notificationBody, notificationTitle, notificationUrl } from '#sync/protocol/notification-text';
import { selectNotificationItems, shownTo, toNotificationItem } from './notification-rows';

/**
 * The push of one notification as it stands now (a like may have added a liker since it was due), or
 * undefined when it is gone or no longer shown to its member (its actor and they blocked each other,
 * or they muted the actor, since it was written: notification-rows.ts, shownTo).
 */
export async function pushPayloadOf(db: Kysely<Database>, id: string): Promise<{ userId: string; payload: PushPayload } | undefined> {
  const owner = await db.selectFrom('notifications').select('user_id').where('id', '=', id).executeTakeFirst();
  if (!owner) return undefined;
  const row = await selectNotificationItems(db).where('n.id', '=', id).where(shownTo(owner.user_id)).executeTakeFirst();
  if (!row) return undefined;
  const unread = await db
    .selectFrom('notifications as n')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('n.user_id', '=', owner.user_id)
    .where('n.read_at', 'is', null)
    .where(shownTo(owner.user_id))
    .executeTakeFirstOrThrow();
  const notification = toNotificationItem(row);
  return {
    userId: owner.user_id,
    payload: {
      notification,
      title: notificationTitle(notification),
      body: notificationBody(notification),
      url: notificationUrl(notification),
      unread: Number(unread.n),
    },
  };
}
