import { sql, type Kysely } from 'kysely';
import { textType } from './portable';

// Prizes that cannot be farmed (docs/rewards.md, docs/decisions/0001-prizes-that-cannot-be-farmed.md):
// - viewer_days: a member's counted viewer actions per UTC day (the daily cap is applied to these);
// - view_credits: the server time of a member's previous credited push of views (watch time is
//   credited only as fast as the server's clock runs);
// - reward_voids: members an admin took out of a period's scoring;
// - shares_count counts members (each share row is still stored: its id makes replays harmless);
// - comments_user_video: "has this member already commented on this video in the period" is one
//   index probe on every comment. comments_user (user_id) is a prefix of it and only cost writes.
// The counters must then be rebuilt under the new rules (distinct commenters, the cap). That is
// server code, which db/ does not import: the migration leaves a marker row in `settings`, and the
// server rebuilds and removes it at start-up (rebuildScoresIfMarked in server/rewards/recompute.ts).

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('viewer_days')
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('actions', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('viewer_days_pk', ['user_id', 'day'])
    .execute();
  await db.schema
    .createTable('view_credits')
    .addColumn('user_id', text, (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    .addColumn('credited_at', 'bigint', (c) => c.notNull())
    .addColumn('credited_until', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('reward_voids')
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('reward_voids_pk', ['period_start', 'user_id'])
    .execute();

  await db.schema.createIndex('comments_user_video').on('comments').columns(['user_id', 'video_id', 'created_at']).execute();
  await db.schema.dropIndex('comments_user').ifExists().execute();

  // shares_count counts members; shares_user_video answers "has this member shared it before".
  await sql`UPDATE videos SET shares_count = (SELECT count(DISTINCT user_id) FROM shares WHERE shares.video_id = videos.id)`.execute(db);
  await db.schema.createIndex('shares_user_video').on('shares').columns(['user_id', 'video_id']).execute();
  await db.schema.dropIndex('shares_user').ifExists().execute();

  // Views credited so far: the next push may credit the time since the member's newest view.
  await sql`INSERT INTO view_credits (user_id, credited_at, credited_until) SELECT user_id, max(created_at), max(created_at) FROM views GROUP BY user_id`.execute(
    db,
  );
  await sql`INSERT INTO settings (key, value, updated_at) VALUES ('scores_rebuild_pending', '"0007"', 0) ON CONFLICT (key) DO NOTHING`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('shares_user').ifNotExists().on('shares').column('user_id').execute();
  await db.schema.dropIndex('shares_user_video').ifExists().execute();
  await db.schema.createIndex('comments_user').ifNotExists().on('comments').column('user_id').execute();
  await db.schema.dropIndex('comments_user_video').ifExists().execute();
  for (const t of ['reward_voids', 'view_credits', 'viewer_days']) await db.schema.dropTable(t).ifExists().execute();
}
