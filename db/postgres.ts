import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { Database } from './schema';
import type { DbHandle } from './connect';

export interface PostgresOptions {
  /** Connections in the pool (DATABASE_POOL_SIZE). */
  poolSize: number;
  /** A statement running longer is cancelled by the server (DATABASE_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs: number;
  /** Told about connections that broke (a restarted server): the pool drops them and reconnects. */
  onConnectionError?: (err: Error) => void;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Counts, ids of the change log and millisecond times are int8; sums are numeric. They all fit a
 * double (times until the year 287396, counts far below 2^53), and every caller expects numbers, as
 * SQLite returns them.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID || oid === NUMERIC_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/** Distinct SQL texts prepared per connection; a text past this runs unnamed (parsed each time). */
const NAMED_PER_CONNECTION = 256;

/**
 * The PostgreSQL twin of statement-cache.ts: each SQL text runs as a named prepared statement on
 * the connection, so the server parses and plans it once per connection instead of on every call.
 * `IN (…)` lists of many lengths make the set of texts open-ended: past the limit, texts run unnamed.
 */
function withNamedStatements(pool: pg.Pool, onError: (err: Error) => void): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const names = new Map<string, string>();
    const nameOf = (text: string): string | undefined => {
      const known = names.get(text);
      if (known || names.size >= NAMED_PER_CONNECTION) return known;
      const name = `k${names.size}`;
      names.set(text, name);
      return name;
    };
    return {
      query: ((text: unknown, values?: unknown[]) => {
        if (typeof text !== 'string') return client.query(text as pg.Submittable);
        const name = /^\s*(begin|commit|rollback|savepoint|release|start transaction)/i.test(text) ? undefined : nameOf(text);
        return client.query({ text, values: values ?? [], ...(name ? { name } : {}) });
      }) as unknown as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      let w = wrapped.get(client);
      if (!w) {
        // The pool listens for errors only while a client is idle in it; a connection cut while a
        // request holds it (between two statements of a transaction) would otherwise be an
        // uncaught 'error' event. The request itself sees the failure on its next statement.
        client.on('error', onError);
        w = wrap(client);
        wrapped.set(client, w);
      }
      return w;
    },
    end: () => pool.end(),
  };
}

/** Opens a pool to the PostgreSQL database at `url`; nothing connects until the first query. */
export function openPostgres(url: string, options: PostgresOptions): DbHandle & { engine: { dialect: 'postgres'; pool: pg.Pool } } {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    statement_timeout: options.statementTimeoutMs,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types,
  });
  // Without a listener, an idle connection that the server closes crashes the process.
  pool.on('error', (err) => options.onConnectionError?.(err));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool, (err) => options.onConnectionError?.(err)) }) });
  return {
    db,
    engine: { dialect: 'postgres', pool },
    close: async () => {
      await db.destroy();
    },
  };
}
