import { openClientDb, type ClientDb } from './db';
import { SyncEngine, type SyncOptions } from './sync-engine';

/**
 * The app's one local database and the running engine of the signed-in user. The auth layer calls
 * startSync on sign-in (and on every restored session) and stopSync on sign-out; the queue of a
 * signed-out user stays in IndexedDB, tagged with its user id, until that user is back.
 */
let db: ClientDb | null = null;
let engine: SyncEngine | null = null;
const listeners = new Set<() => void>();

export function getClientDb(): ClientDb {
  db ??= openClientDb();
  return db;
}

export function getSyncEngine(): SyncEngine | null {
  return engine;
}

export function subscribeSyncEngine(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export type StartSyncOptions = Omit<SyncOptions, 'db'> & { db?: ClientDb };

/** Starts (or keeps, for the same user) the sync engine; returns it at once, flushing in the background. */
export function startSync(opts: StartSyncOptions): SyncEngine {
  if (engine && engine.userId === opts.userId) return engine;
  if (engine) void engine.stop();
  engine = new SyncEngine({ ...opts, db: opts.db ?? getClientDb() });
  void engine.start();
  for (const l of listeners) l();
  return engine;
}

export async function stopSync(): Promise<void> {
  const e = engine;
  engine = null;
  for (const l of listeners) l();
  await e?.stop();
}
