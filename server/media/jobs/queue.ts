import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
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

/** Jobs that are queued or running, the ones a member may have at most MAX_PENDING_VIDEOS of (server/uploads/quotas.ts). */
export const PENDING_STATES = ['queued', 'running'] as const;

/**
 * Where a member's later jobs go in the queue: each job of theirs already pending puts the new one a
 * slot further back (fair_at = now + pending x slot), so the runners take members in turn: another
 * member's first video, queued up to a slot after a burst, is claimed before the burst's second job.
 * A slot long ago no longer holds a job back, so nobody waits behind others' first videos for ever
 * (docs/reliability.md, "The media job runner").
 */
export const FAIR_SLOT_MS = 15 * 60_000;

/** How many of a member's jobs are queued or running (by the media_jobs_user index). */
export async function countPendingJobs(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('media_jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('state', 'in', PENDING_STATES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Queues the transcode of a video. Call it inside the transaction that writes the video row, so
 * a video never exists without its job (nor a job without its video). The in-process runners are
 * woken on the next turn: on SQLite the claim waits for the one connection, so it runs after the
 * commit; on PostgreSQL the caller wakes them again after its commit (finishUpload), and in another
 * process the runners' poll finds the job.
 */
export async function enqueueMediaJob(db: Db, videoId: string, now: number): Promise<string> {
  const id = randomUUID();
  const owner = (await db.selectFrom('videos').select('user_id').where('id', '=', videoId).executeTakeFirst())?.user_id ?? null;
  const ahead = owner === null ? 0 : await countPendingJobs(db, owner);
  await db
    .insertInto('media_jobs')
    .values({
      id,
      video_id: videoId,
      user_id: owner,
      kind: 'transcode',
      state: 'queued',
      attempts: 0,
      run_at: now,
      fair_at: now + ahead * FAIR_SLOT_MS,
      lease_until: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  setImmediate(wakeMediaRunners);
  return id;
}

/**
 * Claims one due job for `workerId` until `now + leaseMs`: first a running one whose lease expired
 * (its worker died), else the queued job whose time has come with the smallest fair_at (members in
 * turn, see FAIR_SLOT_MS). Of several claimers (runners in this and other processes) exactly one gets
 * a job, and a job is never held by two. Both lookups walk an index in claim order (media_jobs_lease
 * for the few running jobs, media_jobs_fair for the queue) and stop at the first due row.
 */
export async function claimNextJob(db: Kysely<Database>, workerId: string, now: number, leaseMs: number): Promise<ClaimedJob | null> {
  return onPostgres(db as unknown as Kysely<unknown>) ? claimSkipLocked(db, workerId, now, leaseMs) : claimCompareAndSet(db, workerId, now, leaseMs);
}

/** The due jobs in claim order, `limit` of each kind: expired leases, then the queue by fair_at. */
const dueJobLookups = (db: Kysely<Database>, now: number) =>
  [
    db.selectFrom('media_jobs').where('state', '=', 'running').where('lease_until', '<', now).orderBy('lease_until'),
    db.selectFrom('media_jobs').where('state', '=', 'queued').where('run_at', '<=', now).orderBy('fair_at').orderBy('id'),
  ] as const;

const claimedSet = (workerId: string, now: number, leaseMs: number) =>
  ({ state: 'running', worker_id: workerId, lease_until: now + leaseMs, attempts: sql<number>`attempts + 1`, updated_at: now }) as const;

/**
 * PostgreSQL: one statement per lookup. `FOR UPDATE SKIP LOCKED` locks the first due row no other
 * claimer holds (and re-checks it is still due once locked), so concurrent claimers take different
 * jobs without waiting on each other, and a row being claimed is never claimed again.
 */
async function claimSkipLocked(db: Kysely<Database>, workerId: string, now: number, leaseMs: number): Promise<ClaimedJob | null> {
  for (const due of dueJobLookups(db, now)) {
    const row = await db
      .updateTable('media_jobs')
      .set(claimedSet(workerId, now, leaseMs))
      .where('id', '=', () => due.select('id').limit(1).forUpdate().skipLocked())
      .returning(['id', 'video_id', 'attempts', 'lease_until'])
      .executeTakeFirst();
    if (row) return { id: row.id, videoId: row.video_id, attempt: row.attempts, leaseUntil: row.lease_until };
  }
  return null;
}

/**
 * SQLite (no row locks): a compare-and-set. The UPDATE only matches if the row still has the
 * state, lease and try count we read, so of two claimers exactly one wins; the loser tries the
 * next candidate, and reads again when others took them all (null means nothing is due).
 */
async function claimCompareAndSet(db: Kysely<Database>, workerId: string, now: number, leaseMs: number): Promise<ClaimedJob | null> {
  for (;;) {
    const candidates = [];
    for (const due of dueJobLookups(db, now)) candidates.push(...(await due.select(['id', 'video_id', 'state', 'lease_until', 'attempts']).limit(8).execute()));
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
