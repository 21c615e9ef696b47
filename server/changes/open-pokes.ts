import type { Engine } from '#db/engine';
import type { Logger } from '../logger';
import { createPokes, type Pokes } from './pokes';
import { createSharedPokes } from './pokes-postgres';

/**
 * The pokes for the database in use: on SQLite there is one process, so in-process pokes; on
 * PostgreSQL several instances may serve one database, and a poke must reach the streams on all.
 */
export function openPokes(engine: Engine, databaseUrl: string, log: Logger, listen = true): Pokes & { close(): Promise<void> } {
  if (engine.dialect === 'sqlite') return { ...createPokes(), close: async () => {} };
  return createSharedPokes({ url: databaseUrl, pool: engine.pool, log, listen });
}
