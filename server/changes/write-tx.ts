import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { Logger } from '../logger';
import { Changes, type ChangeSink } from './changes';
import { writeChangeLog } from './change-log';
import type { Pokes } from './pokes';
import { retryTransactionConflicts } from './conflict-retry';

export interface WriteDeps {
  db: Kysely<Database>;
  pokes: Pokes;
  log: Logger;
  now: () => number;
}

/**
 * The change-log rows, inserted by Kysely in the given transaction under the change-log lock
 * (writeChangeLog): flush into it as the transaction's last write.
 */
export function kyselySink(trx: Transaction<Database> | Kysely<Database>): ChangeSink {
  return (rows) => writeChangeLog(trx, rows);
}

/**
 * The one way the server writes what clients sync: runs `work` in a transaction, writes the
 * change-log rows it declared on `changes` at the end of that same transaction, under the
 * change-log lock held to the commit (so a pull cursor never sees a change whose rows are not
 * committed, and never skips one that commits later: seqs are drawn in commit order), then, after the commit,
 * pokes the scopes once and runs the post-commit tasks. `work` may run more than once (a lost
 * deadlock on PostgreSQL): it must only write through `trx` and `changes`. `origin` is the member whose action it
 * was: their own devices are poked last (they already show it).
 */
export async function writeTx<T>(
  deps: WriteDeps,
  work: (trx: Transaction<Database>, changes: Changes) => Promise<T>,
  options: { origin?: string } = {},
): Promise<T> {
  // On PostgreSQL a deadlock or serialization failure undoes the whole transaction: it runs again
  // from the start with fresh changes (nothing of the undone attempt was written or published).
  const { result, changes } = await retryTransactionConflicts(async () => {
    const changes = new Changes(deps.now());
    const result = await deps.db.transaction().execute(async (trx) => {
      const out = await work(trx, changes);
      await changes.flush(kyselySink(trx));
      return out;
    });
    return { result, changes };
  });
  await publishChanges(deps, changes, options.origin);
  return result;
}

/** After the commit: one poke for all the scopes, then the tasks (a failing task is logged, not thrown: the write stands). */
export async function publishChanges(deps: Pick<WriteDeps, 'pokes' | 'log'>, changes: Changes, origin?: string): Promise<void> {
  deps.pokes.notify([...changes.scopes], origin);
  for (const task of changes.afterCommitTasks) {
    try {
      await task();
    } catch (err) {
      deps.log.error('a task after a committed write failed', err);
    }
  }
}
