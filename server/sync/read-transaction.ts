import type { Kysely, TransactionBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { Engine } from '#db/engine';

/**
 * A transaction for a read that answers with a change-log cursor (a pull, a poke's delta): the
 * cursor and the rows must come from one snapshot. SQLite's single connection gives that to any
 * transaction; PostgreSQL's default READ COMMITTED takes a new snapshot per statement, so the log
 * could be read before a commit and the rows after it. REPEATABLE READ keeps one snapshot for the
 * whole transaction; READ ONLY lets PostgreSQL skip what writes would need.
 */
export function snapshotRead(db: Kysely<Database>, engine: Engine): TransactionBuilder<Database> {
  const trx = db.transaction();
  return engine.dialect === 'postgres' ? trx.setIsolationLevel('repeatable read').setAccessMode('read only') : trx;
}
