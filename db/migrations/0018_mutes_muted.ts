import type { Kysely } from 'kysely';

// mutes_muted: the members who muted one member (docs/decisions/0024-safety.md). A push reads them
// once, with its pusher's blocks both ways (server/sync/mutations/safety-rules.ts), so that a like,
// a comment's like or a follow tells nobody who muted its author; the mutes key leads by the muter.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('mutes_muted').on('mutes').columns(['muted_id', 'muter_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mutes_muted').execute();
}
