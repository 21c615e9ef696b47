import type { Kysely } from 'kysely';

// Indexes the rewards counters need to stay cheap when a counted action is removed: the new
// "reach time" of a member (the newest action of theirs still counted) is found by reading the
// newest entries of these indexes instead of every like, comment and view. views_user_time also
// serves the anti-cheat check on view spacing.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('likes_video_time').on('likes').columns(['video_id', 'created_at']).execute();
  await db.schema.createIndex('likes_user_time').on('likes').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('comments_user_time').on('comments').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('views_user_time').on('views').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['likes_video_time', 'likes_user_time', 'comments_user_time', 'views_user_time']) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
