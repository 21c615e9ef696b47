import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';
import { onPostgres } from './migrations/portable';

type Tx = Transaction<Database> | Kysely<Database>;

/*
 * Transaction-scoped advisory locks (PostgreSQL; docs/decisions/0017-postgresql.md). On SQLite one
 * write transaction runs at a time, so every function here is a no-op there. Each lock is released
 * by the commit or rollback of the transaction that took it.
 */
const CHANGE_LOG_KEY = 0x7669_6401; // 'vid' 1
const SCORING_KEY = 0x7669_6402;

/**
 * Held from the change-log insert to the commit: change-log seqs are then assigned in commit order,
 * so a pull that sees seq N has also seen every committed seq below N (the cursor never skips).
 * Take it as the LAST thing before commit: it serializes only the insert and the commit.
 */
export async function lockChangeLog(trx: Tx): Promise<void> {
  if (onPostgres(trx as Kysely<unknown>)) await sql`SELECT pg_advisory_xact_lock(${CHANGE_LOG_KEY})`.execute(trx);
}

/**
 * Shared by every transaction that moves leaderboard points (pushes, deletions): they read the
 * period start, eligibility and the daily cap once and rely on them until commit.
 */
export async function lockScoringShared(trx: Tx): Promise<void> {
  if (onPostgres(trx as Kysely<unknown>)) await sql`SELECT pg_advisory_xact_lock_shared(${SCORING_KEY})`.execute(trx);
}

/**
 * Exclusive for what changes those facts (a distribution, a member's status, a void, the cap, a
 * recompute): it waits for running point-moving transactions and holds new ones until it commits.
 */
export async function lockScoringExclusive(trx: Tx): Promise<void> {
  if (onPostgres(trx as Kysely<unknown>)) await sql`SELECT pg_advisory_xact_lock(${SCORING_KEY})`.execute(trx);
}

/** One member's transactions one at a time (their view windows, daily counts, likes and pairs). */
export async function lockMember(trx: Tx, userId: string): Promise<void> {
  if (onPostgres(trx as Kysely<unknown>)) await sql`SELECT pg_advisory_xact_lock(hashtextextended(${userId}, 7))`.execute(trx);
}
