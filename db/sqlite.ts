import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from './schema';
import type { DbHandle } from './connect';
import { withStatementCache } from './statement-cache';

/** Opens (creating if needed) the SQLite database at `file` with the durability settings of docs/decisions/0011-sqlite-first.md. */
export function openSqlite(file: string): DbHandle & { engine: { dialect: 'sqlite'; sqlite: SQLite.Database } } {
  if (file !== ':memory:') ownerOnlyFile(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // SQLite creates the -wal and -shm files with the database file's mode (0600 above); files left
  // by an older version are tightened here too.
  if (file !== ':memory:') for (const extra of [`${file}-wal`, `${file}-shm`]) if (existsSync(extra)) chmodSync(extra, 0o600);
  // FULL: an acknowledged mutation survives a power cut, not only a process crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // A checkpoint every 10,000 WAL pages (~40 MB), not SQLite's 1,000: a push dirties dozens of pages,
  // the hot ones (score and notification indexes, the change log's tail) over and over, and each
  // checkpoint copies them into the file and syncs it on the event loop. Commits still sync the WAL
  // (FULL above). Mixed load +13-17 % (docs/benchmarks.md, "Mixed load").
  sqlite.pragma('wal_autocheckpoint = 10000');
  // A push's savepoints keep the pages they change in a statement journal, which spills to a temp
  // file past 64 KiB: a push of 5 likes wrote ~190 KB there, in ~90 write calls. In memory instead
  // (mixed load +5 %, write calls per push 150 -> 57).
  sqlite.pragma('temp_store = MEMORY');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    engine: { dialect: 'sqlite', sqlite },
    close: async () => {
      await db.destroy();
    },
  };
}

/**
 * The database holds every member's data: it is created 0600 in a 0700 folder when new (an empty
 * file is a valid empty database), and an existing file is tightened to 0600.
 */
function ownerOnlyFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, '', { flag: 'a', mode: 0o600 });
  chmodSync(file, 0o600);
}
