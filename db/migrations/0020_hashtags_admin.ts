import type { Kysely } from 'kysely';

// hashtags_videos_count: the admin's list of the most used tags (server/admin/hashtags.ts) walks it
// backwards from the top, one page at a time, instead of sorting every tag.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('hashtags_videos_count').on('hashtags').columns(['videos_count', 'tag']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('hashtags_videos_count').execute();
}
