import type SQLite from 'better-sqlite3';
import type pg from 'pg';

/**
 * The engine under Kysely, for the few hot paths that have a faster form than a Kysely query on
 * each (docs/decisions/0017-postgresql.md): SQLite's synchronous prepared statements, or the
 * PostgreSQL pool. Everything else goes through Kysely and runs on both.
 */
export type Engine = { dialect: 'sqlite'; sqlite: SQLite.Database } | { dialect: 'postgres'; pool: pg.Pool };

export type Dialect = Engine['dialect'];

/** The SQLite connection of a SQLite engine; for code that only runs on SQLite (its own tests, its tools). */
export function sqliteOf(engine: Engine): SQLite.Database {
  if (engine.dialect !== 'sqlite') throw new Error('this runs on SQLite only');
  return engine.sqlite;
}
