import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
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
 * commit; elsewhere the runners' poll finds the job.
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
 * running one whose lease expired (its worker died). Dialect-neutral compare-and-set: the UPDATE
 * only matches if the row still has the state and lease we read, so of two claimers exactly one
 * wins; the loser tries the next candidate.
 * On PostgreSQL the candidate select can instead be `FOR UPDATE SKIP LOCKED` inside a transaction
 * (claimers then never even contend for a row); the compare-and-set stays correct either way.
 */
export async function claimNextJob(db: Kysely<Database>, workerId: string, now: number, leaseMs: number): Promise<ClaimedJob | null> {
  const candidates = await db
    .selectFrom('media_jobs')
    .select(['id', 'video_id', 'state', 'lease_until', 'attempts'])
    .where((eb) => eb.or([eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])]))
    .orderBy('run_at')
    .orderBy('id')
    .limit(8)
    .execute();
  for (const c of candidates) {
    const leaseUntil = now + leaseMs;
    const res = await db
      .updateTable('media_jobs')
      .set({ state: 'running', worker_id: workerId, lease_until: leaseUntil, attempts: sql<number>`attempts + 1`, updated_at: now })
      .where('id', '=', c.id)
      .where('state', '=', c.state)
      .where('lease_until', '=', c.lease_until)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) return { id: c.id, videoId: c.video_id, attempt: c.attempts + 1, leaseUntil };
  }
  return null;
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
