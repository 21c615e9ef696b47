import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';

/**
 * Ends every queued or running media job, as a runner would once it processed them. The upload
 * suites run no runner, and a member may have only 3 videos in processing (server/uploads/quotas.ts),
 * so a suite that finishes more uploads for one member calls this between them.
 */
export async function markAllProcessed(deps: { db: Kysely<Database> }): Promise<void> {
  await deps.db.updateTable('media_jobs').set({ state: 'done' }).where('state', 'in', ['queued', 'running']).execute();
}
