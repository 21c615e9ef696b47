import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { Logger } from '../logger';
import { Changes, type ChangeSink } from './changes';
import type { Pokes } from './pokes';

export interface WriteDeps {
  db: Kysely<Database>;
  pokes: Pokes;
  log: Logger;
  now: () => number;
}

/** The change-log rows, inserted by Kysely in the given transaction. */
export function kyselySink(trx: Transaction<Database> | Kysely<Database>): ChangeSink {
  return async (rows) => {
    await trx.insertInto('change_log').values(rows).execute();
  };
}

/**
 * The one way the server writes what clients sync: runs `work` in a transaction, writes the
 * change-log rows it declared on `changes` in that same transaction (so a pull cursor never sees a
 * change whose rows are not committed, and never misses one that is), then, after the commit,
 * pokes the scopes once and runs the post-commit tasks. `origin` is the member whose action it
 * was: their own devices are poked last (they already show it).
 */
export async function writeTx<T>(
  deps: WriteDeps,
  work: (trx: Transaction<Database>, changes: Changes) => Promise<T>,
  options: { origin?: string } = {},
): Promise<T> {
  const changes = new Changes(deps.now());
  const result = await deps.db.transaction().execute(async (trx) => {
    const out = await work(trx, changes);
    await changes.flush(kyselySink(trx));
    return out;
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
