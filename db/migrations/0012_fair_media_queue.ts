import { sql, type Kysely } from 'kysely';
import { textType } from './portable';

// Fair scheduling of media jobs (docs/reliability.md, "The media job runner").
// - media_jobs.user_id: the video's owner, so a member's pending jobs are counted by index (at most
//   3 at once, checked when an upload finishes) without walking all of their videos.
// - media_jobs.fair_at: the job's place in the queue: its creation time plus a fixed slot for each
//   job of the same member already pending when it was queued. The runner claims the smallest, so a
//   burst of one member never pushes another member's first video back by more than the job running.
//   Existing jobs keep the order they had (fair_at = run_at).
// - The claim walks media_jobs_fair (state, fair_at, id) for queued jobs and media_jobs_lease (state,
//   lease_until) for expired leases; media_jobs_due (state, run_at) served the old first-in-first-out
//   claim and goes, so no planner sorts by picking it instead.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media_jobs').addColumn('user_id', textType(db)).execute();
  await db.schema
    .alterTable('media_jobs')
    .addColumn('fair_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE media_jobs SET fair_at = run_at, user_id = (SELECT v.user_id FROM videos v WHERE v.id = media_jobs.video_id)`.execute(db);
  await db.schema.dropIndex('media_jobs_due').execute();
  await db.schema.createIndex('media_jobs_lease').on('media_jobs').columns(['state', 'lease_until']).execute();
  await db.schema.createIndex('media_jobs_fair').on('media_jobs').columns(['state', 'fair_at', 'id']).execute();
  await db.schema.createIndex('media_jobs_user').on('media_jobs').columns(['user_id', 'state']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('media_jobs_user').execute();
  await db.schema.dropIndex('media_jobs_fair').execute();
  await db.schema.dropIndex('media_jobs_lease').execute();
  await db.schema.createIndex('media_jobs_due').on('media_jobs').columns(['state', 'run_at']).execute();
  await db.schema.alterTable('media_jobs').dropColumn('fair_at').execute();
  await db.schema.alterTable('media_jobs').dropColumn('user_id').execute();
}
