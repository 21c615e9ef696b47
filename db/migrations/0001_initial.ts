import type { Kysely } from 'kysely';
import { onPostgres, serialKeyType, textType } from './portable';

// The whole data model of the product (issue: foundation). Later changes add columns in new
// migrations; they never rewrite this one. Column types are the portable ones Kysely maps to
// both SQLite and Postgres ('text', 'integer', 'bigint').

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('profiles')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('email', text, (c) => c.notNull().unique())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('account_status', text, (c) => c.notNull().defaultTo('active'))
    .addColumn('email_verified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('profiles_created_at').on('profiles').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('profiles_name').on('profiles').column('name').execute();

  await db.schema
    .createTable('credentials')
    .addColumn('user_id', text, (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    .addColumn('password_hash', text, (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('family_id', text, (c) => c.notNull())
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('replaced_by', text)
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('purpose', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('email_tokens_user').on('email_tokens').column('user_id').execute();

  await db.schema
    .createTable('videos')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('title', text, (c) => c.notNull())
    .addColumn('description', text, (c) => c.notNull().defaultTo(''))
    .addColumn('file_key', text, (c) => c.notNull())
    .addColumn('mime_type', text, (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('sha256', text, (c) => c.notNull())
    .addColumn('poster_key', text)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shares_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The feed is keyset-paged newest first: (created_at, id) descending.
  await db.schema.createIndex('videos_feed').on('videos').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('videos_user').on('videos').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('video_id', text, (c) => c.notNull())
    .addColumn('title', text, (c) => c.notNull())
    .addColumn('description', text, (c) => c.notNull().defaultTo(''))
    .addColumn('filename', text, (c) => c.notNull())
    .addColumn('filetype', text, (c) => c.notNull())
    .addColumn('size_bytes', 'bigint')
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('reason', text)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_video').on('uploads').column('video_id').execute();
  await db.schema.createIndex('uploads_status').on('uploads').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('likes')
    .addColumn('video_id', text, (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('likes_pk', ['video_id', 'user_id'])
    .execute();
  await db.schema.createIndex('likes_user').on('likes').columns(['user_id', 'video_id']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('video_id', text, (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('content', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_video').on('comments').columns(['video_id', 'created_at']).execute();
  await db.schema.createIndex('comments_user').on('comments').column('user_id').execute();

  await db.schema
    .createTable('views')
    .addColumn('video_id', text, (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('watched_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('views_pk', ['video_id', 'user_id'])
    .execute();
  await db.schema.createIndex('views_user').on('views').column('user_id').execute();

  await db.schema
    .createTable('shares')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('video_id', text, (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shares_video').on('shares').column('video_id').execute();
  await db.schema.createIndex('shares_user').on('shares').column('user_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', text, (c) => c.primaryKey())
    .addColumn('value', text, (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('prizes')
    .addColumn('board', text, (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('amount_rupees', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('prizes_pk', ['board', 'rank'])
    .execute();

  await db.schema
    .createTable('scores')
    .addColumn('user_id', text, (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    .addColumn('creator_points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('viewer_points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creator_reached_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('viewer_reached_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // Leaderboards read the top of these indexes: no full scans.
  await db.schema.createIndex('scores_creator').on('scores').columns(['creator_points desc', 'creator_reached_at', 'user_id']).execute();
  await db.schema.createIndex('scores_viewer').on('scores').columns(['viewer_points desc', 'viewer_reached_at', 'user_id']).execute();

  await db.schema
    .createTable('distributions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('period_start', 'bigint', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('distribution_winners')
    .addColumn('distribution_id', text, (c) => c.notNull().references('distributions.id').onDelete('cascade'))
    .addColumn('board', text, (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.notNull())
    .addColumn('user_name', text, (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('prize_rupees', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('distribution_winners_pk', ['distribution_id', 'board', 'rank'])
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('provider', text, (c) => c.notNull())
    .addColumn('order_id', text, (c) => c.notNull().unique())
    .addColumn('payment_id', text, (c) => c.unique())
    .addColumn('amount_paise', 'bigint', (c) => c.notNull())
    .addColumn('currency', text, (c) => c.notNull().defaultTo('INR'))
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('captured_at', 'bigint')
    .execute();
  await db.schema.createIndex('payments_user').on('payments').column('user_id').execute();
  await db.schema.createIndex('payments_status').on('payments').column('status').execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('event_id', text, (c) => c.primaryKey())
    .addColumn('provider', text, (c) => c.notNull())
    .addColumn('event_type', text, (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sync_clients')
    .addColumn('client_id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('last_mutation_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('change_log')
    .addColumn('seq', serialKeyType(db), (c) => (onPostgres(db) ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement()))
    .addColumn('entity', text, (c) => c.notNull())
    .addColumn('entity_id', text, (c) => c.notNull())
    .addColumn('video_id', text)
    .addColumn('user_id', text)
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('change_log_entity').on('change_log').columns(['entity', 'entity_id']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', serialKeyType(db), (c) => (onPostgres(db) ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement()))
    .addColumn('actor_id', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('target', text)
    .addColumn('details', text)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created').on('audit_log').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'audit_log',
    'change_log',
    'sync_clients',
    'webhook_events',
    'payments',
    'distribution_winners',
    'distributions',
    'scores',
    'prizes',
    'settings',
    'shares',
    'views',
    'comments',
    'likes',
    'uploads',
    'videos',
    'email_tokens',
    'refresh_tokens',
    'credentials',
    'profiles',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
