import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared; `IN (?, ?, …)` lists of many lengths make the set open-ended. */
const DEFAULT_CAPACITY = 256;

/**
 * The database handle Kysely's SqliteDialect sees, with prepared statements reused by SQL text.
 * Kysely prepares every statement on every execution; on the push path that was a fifth of the CPU
 * (measured with --cpu-prof), as much as running the statements themselves.
 *
 * A statement that is still iterating (a streamed query) is `busy` and cannot run twice at once, so
 * a busy one is never handed out again: the caller gets a fresh, uncached statement instead.
 */
export function withStatementCache(sqlite: SQLite.Database, capacity = DEFAULT_CAPACITY): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      const hit = cache.get(sql);
      if (hit) {
        if (hit.busy) return sqlite.prepare(sql);
        // Map order is insertion order: re-inserting keeps the least recently used first.
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = sqlite.prepare(sql);
      cache.set(sql, stmt);
      if (cache.size > capacity) cache.delete(cache.keys().next().value!);
      return stmt;
    },
  };
}
