import { sql, type Kysely } from 'kysely';

// The people reads (docs/data-model.md, "People"; docs/decisions/0022-following-feed-on-read.md).
// - videos_user_ready: a member's ready videos newest first. The Following feed reads the top of
//   it once per followed creator (fan-out on read), a creator page pages through it, and
//   videos_count counts it without touching the table. Partial (ready only) on both engines: the
//   reads say media_status = 'ready' literally, which is what lets either planner pick it.
// - profiles_followers: the most-followed members first, for "who to follow".

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('videos_user_ready')
    .on('videos')
    .columns(['user_id', 'created_at', 'id'])
    .where(sql.ref('media_status'), '=', sql.lit('ready'))
    .execute();
  await db.schema.createIndex('profiles_followers').on('profiles').columns(['followers_count', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('profiles_followers').execute();
  await db.schema.dropIndex('videos_user_ready').execute();
}
