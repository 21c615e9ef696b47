import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * What the migrations write differently on each engine (docs/decisions/0017-postgresql.md). The
 * SQLite DDL stays exactly what it was, so an existing database and a new one agree.
 */
export function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Text that sorts and compares byte by byte, as SQLite's default BINARY collation does: keyset
 * cursors compare ids with `<`, and the client orders the same ids in JavaScript (code units, which
 * agree with UTF-8 bytes for the ids we mint). A database created with a locale collation would
 * otherwise order 'a' < 'B' and page differently from SQLite.
 */
export function textType(db: Kysely<unknown>): 'text' | RawBuilder<unknown> {
  return onPostgres(db) ? sql`text collate "C"` : 'text';
}

/** A growing integer key: SQLite's INTEGER PRIMARY KEY AUTOINCREMENT, PostgreSQL's bigint identity. */
export function serialKeyType(db: Kysely<unknown>): 'integer' | 'bigint' {
  return onPostgres(db) ? 'bigint' : 'integer';
}
