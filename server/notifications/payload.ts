import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { PushPayload } from '#sync/protocol/notifications';
import { notificationBody, notificationTitle, notificationUrl } from '#sync/protocol/notification-text';
import { selectNotificationItems, toNotificationItem } from './notification-rows';

/** The push of one notification as it stands now (a like may have added a liker since it was due), or undefined when it is gone. */
export async function pushPayloadOf(db: Kysely<Database>, id: string): Promise<{ userId: string; payload: PushPayload } | undefined> {
  const row = await selectNotificationItems(db).select('n.user_id').where('n.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const unread = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', row.user_id)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  const notification = toNotificationItem(row);
  return {
    userId: row.user_id,
    payload: {
      notification,
      title: notificationTitle(notification),
      body: notificationBody(notification),
      url: notificationUrl(notification),
      unread: Number(unread.n),
    },
  };
}
