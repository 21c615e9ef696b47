import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from './schema';
import { withStatementCache } from './statement-cache';
import * as m0001 from './migrations/0001_initial';
import * as m0002uploads from './migrations/0002_upload_posters';
import * as m0003rewards from './migrations/0003_rewards_indexes';
import * as m0004comments from './migrations/0004_comments_order';
import * as m0005changeLog from './migrations/0005_drop_change_log_entity';
import * as m0006likesUser from './migrations/0006_drop_likes_user';
import * as m0007prizes from './migrations/0007_prizes_not_farmable';
import * as m0008media from './migrations/0008_media_processing';

/** Migrations are listed here, in order, so the bundle needs no file-system scan. */
const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_upload_posters': m0002uploads,
  '0003_rewards_indexes': m0003rewards,
  '0004_comments_order': m0004comments,
  '0005_drop_change_log_entity': m0005changeLog,
  '0006_drop_likes_user': m0006likesUser,
  '0007_prizes_not_farmable': m0007prizes,
  '0008_media_processing': m0008media,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export interface DbHandle {
  db: Kysely<Database>;
  /** The raw connection, for the few hot paths that use prepared statements directly. */
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/** Opens (creating if needed) the SQLite database at `file` with the durability settings of docs/decisions/0011-sqlite-first.md. */
export function openDatabase(file: string): DbHandle {
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    sqlite,
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

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

/** Turns DATABASE_URL (or its default) into a SQLite file path. Only SQLite is wired up today. */
export function sqlitePathFromUrl(url: string): string {
  if (url.startsWith('sqlite://')) return url.slice('sqlite://'.length);
  if (url.startsWith('file:')) return url.slice('file:'.length);
  if (url.includes('://')) throw new Error(`DATABASE_URL: unsupported scheme in "${url}" (expected sqlite:// or a file path)`);
  return url;
}
