import { sql, type Kysely } from 'kysely';
import { onPostgres } from './portable';

// SQLite's likes trigger from 0021 named the keys to move as a row value IN a subquery, and SQLite
// (3.53, as bundled by better-sqlite3) used only the first column of that key: a like read every
// key of each of the video's tags (444 rows for the seed's busiest tag, a whole popular tag at a
// million videos) where one lookup per tag was meant, and the bump of a video's likes_count cost
// ~34 us instead of ~3 (docs/benchmarks.md, "Mixed load"). Here each tag's key is spelled out:
// the tag from video_hashtags, the old count, the video's created_at (what every video_hashtags
// and video_hashtags_top row of a video holds: server/discovery/video-hashtags.ts, the seed, 0021's
// copy) and its id, so the plan is one primary-key lookup per tag. PostgreSQL's function joins
// by the whole key already (its plan is checked by tests/api/hashtags-page.test.ts).

/** The statement of SQLite's trigger; `new` and `old` are the video's row after and before the like. */
export const SQLITE_LIKES_TO_TAGS = `UPDATE video_hashtags_top SET likes_count = new.likes_count
  WHERE tag IN (SELECT tag FROM video_hashtags WHERE video_id = new.id)
    AND likes_count = old.likes_count AND created_at = new.created_at AND video_id = new.id`;

const ROW_VALUE_FORM = `UPDATE video_hashtags_top SET likes_count = new.likes_count
  WHERE (tag, likes_count, created_at, video_id) IN (SELECT tag, old.likes_count, created_at, video_id FROM video_hashtags WHERE video_id = new.id)`;

async function replaceTrigger(db: Kysely<unknown>, statement: string): Promise<void> {
  if (onPostgres(db)) return;
  await sql`DROP TRIGGER videos_likes_to_tags`.execute(db);
  await sql
    .raw(
      `CREATE TRIGGER videos_likes_to_tags AFTER UPDATE OF likes_count ON videos WHEN new.likes_count <> old.likes_count
      BEGIN ${statement}; END`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceTrigger(db, SQLITE_LIKES_TO_TAGS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceTrigger(db, ROW_VALUE_FORM);
}
