import { sql, type Kysely } from 'kysely';
import { textType } from './portable';

// Media processing (docs/media.md): every upload becomes an HLS ladder, a small MP4 and a poster,
// made by a durable job written in the same transaction as the video row.
// - videos.media_status: 'processing' | 'ready' | 'failed'. Rows written before this migration
//   (and rows a seed inserts) are 'ready' and play their original until a job has made renditions;
//   one re-processing job per such video is queued here.
// - videos.media_key: the folder under DATA_DIR/media holding the current outputs
//   ({userId}/{videoId}/{jobId}); its files are master.m3u8, the renditions, small.mp4, poster.jpg.
// - media_jobs: the queue. A worker claims a row by moving lease_until forward with a compare-and-set
//   on its old value (one UPDATE, the same on SQLite and PostgreSQL); an expired lease is claimable
//   again, so a dead worker's job is picked up.

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .alterTable('videos')
    .addColumn('media_status', text, (c) => c.notNull().defaultTo('ready'))
    .execute();
  await db.schema.alterTable('videos').addColumn('media_error', text).execute();
  await db.schema
    .alterTable('videos')
    .addColumn('media_progress', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('videos').addColumn('media_key', text).execute();
  await db.schema.alterTable('videos').addColumn('captions_key', text).execute();

  await db.schema
    .createTable('media_jobs')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('video_id', text, (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('worker_id', text)
    .addColumn('last_error', text)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_jobs_due').on('media_jobs').columns(['state', 'run_at']).execute();
  await db.schema.createIndex('media_jobs_video').on('media_jobs').column('video_id').execute();

  // Every existing video gets renditions made in the background; it stays visible meanwhile.
  await sql`INSERT INTO media_jobs (id, video_id, kind, state, attempts, run_at, lease_until, created_at, updated_at)
    SELECT 'backfill-' || id, id, 'transcode', 'queued', 0, created_at, 0, created_at, created_at FROM videos`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('media_jobs').execute();
  for (const column of ['media_status', 'media_error', 'media_progress', 'media_key', 'captions_key']) {
    await db.schema.alterTable('videos').dropColumn(column).execute();
  }
}
