import type { Kysely } from 'kysely';

// Every read of likes by member is either time-ranged (rewards: user_id, created_at > period) or
// takes all of them (deleting a member): likes_user_time (user_id, created_at) serves both, and
// lookups of one like use the primary key (video_id, user_id). likes_user (user_id, video_id) only
// cost one more B-tree write on every like and unlike.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('likes_user').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('likes_user').ifNotExists().on('likes').columns(['user_id', 'video_id']).execute();
}
