import { sql, type Kysely } from 'kysely';
import { textType } from './portable';

// Web Push follows sessions (docs/notifications.md):
// - push_subscriptions.session_id: the session (refresh-token family) that registered the device;
//   ending the session deletes it, and the sender skips one whose session is not open. Rows from
//   before have no session and are deleted: a device registers again at the app's next start.
// - notifications.actor_id: who commented, so one member's comments on one video are one push.

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await sql`DELETE FROM push_subscriptions`.execute(db);
  await db.schema.alterTable('push_subscriptions').addColumn('session_id', text).execute();
  await db.schema.createIndex('push_subscriptions_session').on('push_subscriptions').column('session_id').execute();
  await db.schema.alterTable('notifications').addColumn('actor_id', text).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('actor_id').execute();
  await db.schema.dropIndex('push_subscriptions_session').execute();
  await db.schema.alterTable('push_subscriptions').dropColumn('session_id').execute();
}
