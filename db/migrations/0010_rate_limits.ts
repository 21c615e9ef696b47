import type { Kysely } from 'kysely';
import { textType } from './portable';

// Rate limits shared by every instance of one PostgreSQL database (server/security/shared-limits.ts):
// the fixed windows of the brute-force limits and the token buckets of the push limit, one row per
// limiter and key. Each check is one atomic upsert, so two instances count into the same row.
// - started_at: a window's start, or when a bucket was last levelled (ms).
// - level: the hits in the window, or the tokens in the bucket (fractional while refilling).
// - counted: whether the last take counted (1) or was refused (0), as the upsert saw it.
// - expires_at: from then on the row says nothing a missing row would not (window over, bucket
//   full again); a periodic sweep deletes such rows.
// SQLite gets the same table, unused there: one process keeps its limits in memory.

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('rate_limits')
    .addColumn('limiter', text, (c) => c.notNull())
    .addColumn('key', text, (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('level', 'double precision', (c) => c.notNull())
    .addColumn('counted', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['limiter', 'key'])
    .execute();
  await db.schema.createIndex('rate_limits_expiry').on('rate_limits').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
