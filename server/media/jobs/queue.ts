import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { onPostgres } from '#db/migrations/portable';
import type { Database } from '#db/schema';
import { wakeMediaRunners } from './registry';

type Db = Kysely<Database> | Transaction<Database>;

/** What a runner holds after a successful claim. */
export interface ClaimedJob {
  id: string;
  videoId: string;
  /** This try's number, 1-based (the claim counts it). */
  attempt: number;
  leaseUntil: number;
}

/** Tries in all, and the wait before each retry (docs/reliability.md, "The media job runner"). */
export interface RetryPolicy {
  maxAttempts: number;
  backoffMs: readonly number[];
}
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, backoffMs: [10_000, 60_000] };

/**
 * Queues the transcode of a video. Call it inside the transaction that writes the video row, so
 * a video never exists without its job (nor a job without its video). The in-process runners are
 * woken on the next turn: on SQLite the claim waits for the one connection, so it runs after the
 * commit; on PostgreSQL the caller wakes them again after its commit (finishUpload), and in another
 * process the runners' poll finds the job.
 */
export async function enqueueMediaJob(db: Db, videoId: string, now: number): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('media_jobs')
    .values({ id, video_id: videoId, kind: 'transcode', state: 'queued', attempts: 0, run_at: now, lease_until: 0, created_at: now, updated_at: now })
    .execute();
  setImmediate(wakeMediaRunners);
  return id;
}

/**
 * Claims one due job for `workerId` until `now + leaseMs`: a queued job whose time has come, or a
 * running one whose lease expired (its worker died). Of several claimers (runners in this and
 * other processes) exactly one gets a job, and a job is never held by two.
 */
export async function claimNextJob(db: Kysely<Database>, workerId: string, now: number, leaseMs: number): Promise<ClaimedJob | null> {
  return onPostgres(db as unknown as Kysely<unknown>) ? claimSkipLocked(db, workerId, now, leaseMs) : claimCompareAndSet(db, workerId, now, leaseMs);
}

const isDue = (now: number) => (eb: ExpressionBuilder<Database, 'media_jobs'>) =>
  eb.or([eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])]);

const claimedSet = (workerId: string, now: number, leaseMs: number) =>
  ({ state: 'running', worker_id: workerId, lease_until: now + leaseMs, attempts: sql<number>`attempts + 1`, updated_at: now }) as const;

/**
 * PostgreSQL: one statement. `FOR UPDATE SKIP LOCKED` locks the first due row no other claimer
 * holds (and re-checks it is still due once locked), so concurrent claimers take different jobs
 * without waiting on each other, and a row being claimed is never claimed again.
 */
async function claimSkipLocked(db: Kysely<Database>, workerId: string, now: number, leaseMs: number): Promise<ClaimedJob | null> {
  const row = await db
    .updateTable('media_jobs')
    .set(claimedSet(workerId, now, leaseMs))
    .where('id', '=', (eb) => eb.selectFrom('media_jobs').select('id').where(isDue(now)).orderBy('run_at').orderBy('id').limit(1).forUpdate().skipLocked())
    .returning(['id', 'video_id', 'attempts', 'lease_until'])
    .executeTakeFirst();
  return row ? { id: row.id, videoId: row.video_id, attempt: row.attempts, leaseUntil: row.lease_until } : null;
}

/**
 * SQLite (no row locks): a compare-and-set. The UPDATE only matches if the row still has the
 * state, lease and try count we read, so of two claimers exactly one wins; the loser tries the
 * next candidate, and reads again when others took them all (null means nothing is due).
 */
async function claimCompareAndSet(db: Kysely<Database>, workerId: string, now: number, leaseMs: number): Promise<ClaimedJob | null> {
  for (;;) {
    const candidates = await db
      .selectFrom('media_jobs')
      .select(['id', 'video_id', 'state', 'lease_until', 'attempts'])
      .where(isDue(now))
      .orderBy('run_at')
      .orderBy('id')
      .limit(8)
      .execute();
    if (!candidates.length) return null;
    for (const c of candidates) {
      const res = await db
        .updateTable('media_jobs')
        .set(claimedSet(workerId, now, leaseMs))
        .where('id', '=', c.id)
        .where('state', '=', c.state)
        .where('lease_until', '=', c.lease_until)
        .where('attempts', '=', c.attempts)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) return { id: c.id, videoId: c.video_id, attempt: c.attempts + 1, leaseUntil: now + leaseMs };
    }
  }
}

/** Moves a held lease forward; false when the job is no longer this worker's (re-claimed, or its video deleted). */
export async function renewLease(db: Db, jobId: string, workerId: string, now: number, leaseMs: number): Promise<boolean> {
  const res = await db
    .updateTable('media_jobs')
    .set({ lease_until: now + leaseMs, updated_at: now })
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Marks a held job done (inside the caller's transaction); false when it is no longer this worker's. */
export async function completeJob(db: Db, jobId: string, workerId: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('media_jobs')
    .set({ state: 'done', lease_until: 0, last_error: null, updated_at: now })
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Gives a held job back without counting the try (a clean shutdown): queued again at once, so
 * another worker picks it up without waiting for the lease to run out.
 */
export async function releaseJob(db: Db, jobId: string, workerId: string, now: number): Promise<void> {
  await db
    .updateTable('media_jobs')
    .set({ state: 'queued', lease_until: 0, run_at: now, worker_id: null, attempts: sql<number>`attempts - 1`, updated_at: now })
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('state', '=', 'running')
    .execute();
}

/** The outcome of a failed try: retried at `retryAt`, or failed for good. */
export type FailOutcome = { kind: 'retry'; retryAt: number } | { kind: 'failed' } | { kind: 'lost' };

/**
 * Records a failed try of a held job (inside the caller's transaction). Before the last try the job
 * is queued again after the backoff; after it the job is 'failed' and the caller marks the video.
 */
export async function failJob(db: Db, job: ClaimedJob, workerId: string, detail: string, now: number, policy: RetryPolicy): Promise<FailOutcome> {
  const last = job.attempt >= policy.maxAttempts;
  const wait = policy.backoffMs[Math.min(job.attempt - 1, policy.backoffMs.length - 1)] ?? 0;
  const res = await db
    .updateTable('media_jobs')
    .set(
      last
        ? { state: 'failed', lease_until: 0, last_error: detail, updated_at: now }
        : { state: 'queued', lease_until: 0, run_at: now + wait, worker_id: null, last_error: detail, updated_at: now },
    )
    .where('id', '=', job.id)
    .where('worker_id', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return { kind: 'lost' };
  return last ? { kind: 'failed' } : { kind: 'retry', retryAt: now + wait };
}

/** A deleted video's jobs end (inside the deleting transaction): nothing is left to process. */
export async function endJobsOfVideo(db: Db, videoId: string, now: number): Promise<void> {
  await db
    .updateTable('media_jobs')
    .set({ state: 'done', lease_until: 0, updated_at: now })
    .where('video_id', '=', videoId)
    .where('state', 'in', ['queued', 'running'])
    .execute();
}
