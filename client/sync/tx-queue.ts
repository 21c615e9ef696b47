import { allTables, type ClientDb } from './db';

/**
 * Runs read-write transactions of this JavaScript realm one after another. Dexie follows a
 * transaction across native `await`s with a global zone; two transactions whose async callbacks
 * interleave (a local write while the engine applies a pull) can lose it and commit early. The
 * callbacks are short (no network inside), so queueing them costs nothing noticeable.
 */
let chain: Promise<unknown> = Promise.resolve();

export function runTx<T>(db: ClientDb, fn: () => Promise<T>): Promise<T> {
  // The scope function must itself be declared async: that is how Dexie knows to follow native awaits.
  const run = chain.then(() => db.transaction('rw', allTables(db), async () => await fn()));
  chain = run.catch(() => undefined);
  return run;
}
