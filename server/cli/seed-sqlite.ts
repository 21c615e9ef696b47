import type SQLite from 'better-sqlite3';
import type { TableLoad } from './seed-rows';

// The seed's SQLite loader: prepared statements in one transaction per table, rows in primary-key
// order, and secondary indexes dropped during the load and rebuilt afterwards (a sort instead of a
// million random B-tree inserts).

export interface SeedLoader {
  /** Before the first load: the engine's bulk-load settings. */
  begin(): Promise<void>;
  load(t: TableLoad): Promise<void>;
  /** After the last load (and the scores): the server's settings again. */
  end(): Promise<void>;
  /** Fresh planner statistics for the new data. */
  analyze(): Promise<void>;
}

/** Drops the table's secondary indexes while `load` runs and rebuilds them after. */
async function withoutIndexes(sqlite: SQLite.Database, table: string, load: () => Promise<void>): Promise<void> {
  const indexes = sqlite
    .prepare<[string], { name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`)
    .all(table);
  for (const ix of indexes) sqlite.exec(`DROP INDEX "${ix.name}"`);
  try {
    await load();
  } finally {
    for (const ix of indexes) sqlite.exec(ix.sql);
  }
}

/** The rows of one table in one transaction; `write` never awaits a drain here, so it runs synchronously. */
async function insertRows(sqlite: SQLite.Database, t: TableLoad): Promise<void> {
  const ins = sqlite.prepare(`INSERT INTO ${t.table} (${t.columns.join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`);
  sqlite.exec('BEGIN');
  try {
    await t.write({ row: ins.run.bind(ins), drain: async () => undefined });
    sqlite.exec('COMMIT');
  } catch (e) {
    sqlite.exec('ROLLBACK');
    throw e;
  }
}

export function sqliteLoader(sqlite: SQLite.Database): SeedLoader {
  let switched = false;
  return {
    async begin() {
      // Rollback journal + no fsync while loading: pages appended to the file need no journal copy,
      // so a crash leaves the database as it was. WAL (the server's mode) is restored at the end.
      switched = String(sqlite.pragma('journal_mode = DELETE', { simple: true })) === 'delete';
      sqlite.pragma('synchronous = OFF');
      sqlite.pragma('foreign_keys = OFF');
      sqlite.pragma('cache_size = -262144');
      sqlite.pragma('temp_store = MEMORY');
    },
    async load(t) {
      await withoutIndexes(sqlite, t.table, () => insertRows(sqlite, t));
    },
    async end() {
      sqlite.pragma('foreign_keys = ON');
      sqlite.pragma('synchronous = FULL');
      if (switched) sqlite.pragma('journal_mode = WAL');
    },
    async analyze() {
      sqlite.exec('ANALYZE');
    },
  };
}
