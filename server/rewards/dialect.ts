import { sql, type Kysely, type RawBuilder } from 'kysely';
import { onPostgres } from '#db/migrations/portable';
import type { Db } from './eligibility';

/*
 * The few SQL forms the rewards queries write differently per engine (docs/rewards.md, "Two
 * engines"). The SQLite text of each query stays exactly what it was (same plans, same statement
 * cache entries); PostgreSQL gets its equivalent.
 */

export const isPostgres = (db: Db): boolean => onPostgres(db as Kysely<unknown>);

/** The larger of the values: SQLite's scalar max(a, b, …), PostgreSQL's greatest(…). */
export function greatest(db: Db, ...values: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return isPostgres(db) ? sql`greatest(${sql.join(values)})` : sql`max(${sql.join(values)})`;
}

/** The smaller of the values: SQLite's scalar min(a, b, …), PostgreSQL's least(…). */
export function least(db: Db, ...values: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return isPostgres(db) ? sql`least(${sql.join(values)})` : sql`min(${sql.join(values)})`;
}

/**
 * Appended to a SELECT that is followed by a write computed from what it read: on PostgreSQL
 * (READ COMMITTED) the row stays locked until commit, so a concurrent transaction cannot write in
 * between; SQLite runs one write transaction at a time and has no FOR UPDATE.
 */
export function forUpdate(db: Db): RawBuilder<unknown> {
  return isPostgres(db) ? sql` FOR UPDATE` : sql``;
}

/**
 * SQLite's index hint (its planner would otherwise pick another index for some data shapes);
 * PostgreSQL has no hints, and its planner reads the same index for ORDER BY … LIMIT on its own
 * (tests/postgres/plans-rewards-admin.test.ts checks it).
 */
export function indexedBy(db: Db, index: string): RawBuilder<unknown> {
  return isPostgres(db) ? sql`` : sql` INDEXED BY ${sql.id(index)}`;
}

/** SQLite's "read the table in storage order" hint; PostgreSQL chooses a sequential scan itself when it reads most rows. */
export function notIndexed(db: Db): RawBuilder<unknown> {
  return isPostgres(db) ? sql`` : sql` NOT INDEXED`;
}
