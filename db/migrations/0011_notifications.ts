import type { Kysely } from 'kysely';
import { textType } from './portable';

// Notifications and Web Push (docs/notifications.md).
// - notifications: what a member is told about, kept as a list (the bell) and synced like any row
//   (change-log entity 'notification', scope user:{id}). Likes on one video are one row while it is
//   unread: `count` grows with each new liker ("5 people liked your video"). read_at is set by the
//   markNotificationsRead mutation. push_due_at: when its push should go out (null: none pending);
//   a like pushes after a short batching window, so five likes are one push.
// - push_subscriptions: one row per device (browser push endpoint), owned by one member.
// - notification_prefs: what a member wants pushed; a missing row is every kind on.

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('notifications')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('video_id', text)
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('actor_name', text)
    .addColumn('detail', text)
    .addColumn('amount_paise', 'integer')
    .addColumn('rank', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .addColumn('push_due_at', 'bigint')
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'updated_at']).execute();
  await db.schema.createIndex('notifications_push_due').on('notifications').column('push_due_at').execute();
  // A deleted video's notifications go with it (server/notifications/create.ts): found by index, not a scan.
  await db.schema.createIndex('notifications_video').on('notifications').column('video_id').execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull())
    .addColumn('endpoint', text, (c) => c.notNull().unique())
    .addColumn('p256dh', text, (c) => c.notNull())
    .addColumn('auth', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();

  await db.schema
    .createTable('notification_prefs')
    .addColumn('user_id', text, (c) => c.primaryKey())
    .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('processing', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('prizes', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_prefs').execute();
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('notifications').execute();
}
