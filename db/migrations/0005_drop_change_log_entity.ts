import type { Kysely } from 'kysely';

// No query reads change_log by (entity, entity_id): pulls walk it by seq, the primary key. The index
// only cost one more B-tree write per logged change, on every like, comment and view a push applies.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('change_log_entity').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('change_log_entity').ifNotExists().on('change_log').columns(['entity', 'entity_id']).execute();
}
