import { openClientDb, type ClientDb } from './db';
import type { SyncEngine } from './sync-engine';

/**
 * The app's one local database and the running engine of the signed-in user. Screens read both
 * from here; the engine itself is started and stopped by start-sync.ts, which the auth layer loads
 * with import(), so the engine's code is not on the first screen's critical path (the database is:
 * the feed is read from it).
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

/** Only for start-sync.ts: publishes the running engine (or none) to the screens. */
export function setSyncEngine(next: SyncEngine | null): void {
  engine = next;
  for (const l of listeners) l();
}
