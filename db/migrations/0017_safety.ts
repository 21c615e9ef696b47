import { sql, type Kysely } from 'kysely';
import { textType } from './portable';

// Safety (docs/data-model.md, "Safety"; docs/decisions/0024-safety.md): blocks, mutes and reports.
// - blocks: one row per blocker and blocked member. Two-way in effect: the reads leave out a member
//   blocked either way, so each direction has its index (the key, and blocks_blocked).
// - mutes: one row per muter and muted member; one-way and silent (only the muter's reads use it).
// - reports: one per reporter, target and reason; at most one open per reporter and target
//   (reports_open_once, partial unique). `snapshot` keeps the evidence (JSON: the title or text,
//   the uploader, the poster) so it survives the target's deletion. reports_reporter_day counts a
//   member's reports of the last day (the daily limit).
// - report_targets: the moderation queue, one row per reported target and state, kept with its
//   reports in the same transaction: the queue pages by (state, first_reported_at) on an index
//   instead of grouping every report at each read.

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  for (const [table, from, to] of [
    ['blocks', 'blocker_id', 'blocked_id'],
    ['mutes', 'muter_id', 'muted_id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(from, text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn(to, text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [from, to])
      .execute();
  }
  await db.schema.createIndex('blocks_blocked').on('blocks').columns(['blocked_id', 'blocker_id']).execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reporter_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('target_type', text, (c) => c.notNull())
    .addColumn('target_id', text, (c) => c.notNull())
    .addColumn('reason', text, (c) => c.notNull())
    .addColumn('note', text)
    .addColumn('state', text, (c) => c.notNull().defaultTo('open'))
    .addColumn('snapshot', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('reports_open_once')
    .on('reports')
    .columns(['reporter_id', 'target_type', 'target_id'])
    .unique()
    .where(sql.ref('state'), '=', sql.lit('open'))
    .execute();
  await db.schema.createIndex('reports_reporter_day').on('reports').columns(['reporter_id', 'created_at']).execute();
  await db.schema.createIndex('reports_target').on('reports').columns(['target_type', 'target_id', 'state']).execute();

  await db.schema
    .createTable('report_targets')
    .addColumn('target_type', text, (c) => c.notNull())
    .addColumn('target_id', text, (c) => c.notNull())
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('reports_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('snapshot', text, (c) => c.notNull())
    .addColumn('first_reported_at', 'bigint', (c) => c.notNull())
    .addColumn('last_reported_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .addColumn('resolution_note', text)
    // A resolved target may be reported again: the new reports open a new row.
    .addColumn('id', text, (c) => c.primaryKey())
    .execute();
  await db.schema
    .createIndex('report_targets_open_once')
    .on('report_targets')
    .columns(['target_type', 'target_id'])
    .unique()
    .where(sql.ref('state'), '=', sql.lit('open'))
    .execute();
  await db.schema.createIndex('report_targets_queue').on('report_targets').columns(['state', 'first_reported_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['report_targets', 'reports', 'mutes', 'blocks']) await db.schema.dropTable(table).execute();
}
