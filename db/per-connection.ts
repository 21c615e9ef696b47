import type SQLite from 'better-sqlite3';

/** Wraps a set of prepared statements so it is compiled once per connection, on first use. */
export function perConnection<T>(prepare: (sqlite: SQLite.Database) => T): (sqlite: SQLite.Database) => T {
  const cache = new WeakMap<SQLite.Database, T>();
  return (sqlite) => {
    let s = cache.get(sqlite);
    if (!s) {
      s = prepare(sqlite);
      cache.set(sqlite, s);
    }
    return s;
  };
}
