import type { ClientDb } from './db';
import { SyncEngine, type SyncOptions } from './sync-engine';
import { getClientDb, getSyncEngine, setSyncEngine } from './active-engine';
import { tellingRejections } from './rejection-events';

// The auth layer loads this module with import() and calls startSync on sign-in (and on every
// restored session) and stopSync on sign-out; the queue of a signed-out user stays in IndexedDB,
// tagged with its user id, until that user is back.

export type StartSyncOptions = Omit<SyncOptions, 'db'> & { db?: ClientDb };

/** Starts (or keeps, for the same user) the sync engine; returns it at once, flushing in the background. */
export function startSync(opts: StartSyncOptions): SyncEngine {
  const current = getSyncEngine();
  if (current && current.userId === opts.userId) return current;
  if (current) void current.stop();
  const engine = new SyncEngine({ ...opts, onRejected: tellingRejections(opts.onRejected), db: opts.db ?? getClientDb() });
  void engine.start();
  setSyncEngine(engine);
  return engine;
}

export async function stopSync(): Promise<void> {
  const e = getSyncEngine();
  setSyncEngine(null);
  await e?.stop();
}
