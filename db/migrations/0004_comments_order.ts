import type { Kysely } from 'kysely';

// A video's comments are paged newest first with the id as tie-break (server/videos/feed-rows.ts:
// ORDER BY created_at DESC, id DESC, and the (created_at, id) cursor). With id in the index SQLite
// walks it backwards and stops after one page; without it, every comment of the video went through
// a temp B-tree to settle equal times. comments_video (video_id, created_at) is a prefix of the new
// index, so it only cost writes and space.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('comments_video_time_id').on('comments').columns(['video_id', 'created_at', 'id']).execute();
  await db.schema.dropIndex('comments_video').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('comments_video').ifNotExists().on('comments').columns(['video_id', 'created_at']).execute();
  await db.schema.dropIndex('comments_video_time_id').ifExists().execute();
}
