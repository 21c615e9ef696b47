import { sql, type Kysely } from 'kysely';
import { onPostgres, textType } from './portable';

// A tag page's "top" order gets a narrow table of its own (docs/decisions/0030-hashtags-top-table.md):
// video_hashtags_top holds one row per filed video and tag, keyed by exactly that order (tag,
// likes_count, created_at, video_id), and is the whole row: WITHOUT ROWID on SQLite, only its
// primary key's index on PostgreSQL. A like used to rewrite each of the video's video_hashtags rows
// and their video_hashtags_top index entries (and, on PostgreSQL, as its update could not be HOT,
// an entry in every index of the table); now it moves one key per tag, and video_hashtags, which
// loses likes_count, is written only when a video is filed or unfiled.
// - server/discovery/video-hashtags.ts writes both tables when it files or unfiles a video, with
//   the video's likes_count of that moment, in the same transaction.
// - The trigger videos_likes_to_tags moves the video's keys when its likes_count changes: it finds
//   them by the video's video_hashtags rows (tag, created_at) and the old count, so each is one
//   primary-key lookup, and the count stays exact in the same statement as the like.

const TOP_COLUMNS = 'tag, likes_count, created_at, video_id';

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.dropIndex('video_hashtags_top').execute();
  await db.schema
    .createTable('video_hashtags_top')
    .addColumn('tag', text, (c) => c.notNull())
    .addColumn('likes_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('video_id', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('video_hashtags_top_pk', ['tag', 'likes_count', 'created_at', 'video_id'])
    .$call((t) => (onPostgres(db) ? t : t.modifyEnd(sql`WITHOUT ROWID`)))
    .execute();
  // The video's count, not the copy: both agree (the old trigger kept them so), the video's is the source.
  await sql
    .raw(
      `INSERT INTO video_hashtags_top (${TOP_COLUMNS})
        SELECT h.tag, v.likes_count, h.created_at, h.video_id FROM video_hashtags h JOIN videos v ON v.id = h.video_id`,
    )
    .execute(db);
  if (onPostgres(db)) {
    await sql`CREATE OR REPLACE FUNCTION vidi_video_likes_to_tags() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE video_hashtags_top t SET likes_count = NEW.likes_count FROM video_hashtags h
          WHERE h.video_id = NEW.id AND t.tag = h.tag AND t.likes_count = OLD.likes_count AND t.created_at = h.created_at AND t.video_id = NEW.id;
        RETURN NULL;
      END $$`.execute(db);
  } else {
    await sql`DROP TRIGGER videos_likes_to_tags`.execute(db);
    await sql`CREATE TRIGGER videos_likes_to_tags AFTER UPDATE OF likes_count ON videos WHEN new.likes_count <> old.likes_count
      BEGIN
        UPDATE video_hashtags_top SET likes_count = new.likes_count
          WHERE (tag, likes_count, created_at, video_id) IN (SELECT tag, old.likes_count, created_at, video_id FROM video_hashtags WHERE video_id = new.id);
      END`.execute(db);
  }
  await db.schema.alterTable('video_hashtags').dropColumn('likes_count').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('video_hashtags')
    .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE video_hashtags SET likes_count = (SELECT v.likes_count FROM videos v WHERE v.id = video_hashtags.video_id)`.execute(db);
  if (onPostgres(db)) {
    await sql`CREATE OR REPLACE FUNCTION vidi_video_likes_to_tags() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE video_hashtags SET likes_count = NEW.likes_count WHERE video_id = NEW.id; RETURN NULL; END $$`.execute(db);
  } else {
    await sql`DROP TRIGGER videos_likes_to_tags`.execute(db);
    await sql`CREATE TRIGGER videos_likes_to_tags AFTER UPDATE OF likes_count ON videos WHEN new.likes_count <> old.likes_count
      BEGIN UPDATE video_hashtags SET likes_count = new.likes_count WHERE video_id = new.id; END`.execute(db);
  }
  await db.schema.dropTable('video_hashtags_top').execute();
  await db.schema.createIndex('video_hashtags_top').on('video_hashtags').columns(['tag', 'likes_count', 'created_at', 'video_id']).execute();
}
