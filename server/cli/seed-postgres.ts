import type pg from 'pg';
import type { TableLoad } from './seed-rows';
import type { SeedLoader } from './seed-sqlite';

// The seed's PostgreSQL loader. Per table, in one transaction (DDL is transactional here, so a
// failed load leaves the table and its indexes as they were):
// - the table's non-unique secondary indexes and its foreign keys are dropped, and re-created after
//   the load: building an index from sorted data and checking a foreign key with one join are far
//   cheaper than a B-tree insert and a trigger's lookup per row;
// - rows go in with COPY FROM STDIN in batches of 10 000 (the full seed's likes in 9-11 s, against
//   18 s as INSERTs of 2 000 unnested rows), the next batch generated while the server writes the
//   previous one.

const BATCH = 10_000;

interface Dropped {
  recreate: string[];
}

/** Drops what slows a bulk insert down and returns the statements that put it back. */
async function dropForLoad(c: pg.PoolClient, table: string): Promise<Dropped> {
  const indexes = await c.query<{ name: string; def: string }>(
    `SELECT ix.relname AS name, pg_get_indexdef(ix.oid) AS def FROM pg_index x JOIN pg_class ix ON ix.oid = x.indexrelid
     WHERE x.indrelid = $1::regclass AND NOT x.indisunique AND NOT x.indisprimary`,
    [table],
  );
  const foreignKeys = await c.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`,
    [table],
  );
  for (const ix of indexes.rows) await c.query(`DROP INDEX "${ix.name}"`);
  for (const fk of foreignKeys.rows) await c.query(`ALTER TABLE ${table} DROP CONSTRAINT "${fk.name}"`);
  return {
    recreate: [...indexes.rows.map((ix) => ix.def), ...foreignKeys.rows.map((fk) => `ALTER TABLE ${table} ADD CONSTRAINT "${fk.name}" ${fk.def}`)],
  };
}

/** The part of pg's connection a COPY needs (pg hands it to a submitted query object). */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/**
 * `COPY … FROM STDIN` with plain pg: a query object pg submits like any other, which answers the
 * server's CopyInResponse with the data and CopyDone (what pg-copy-streams does, for one buffer).
 */
function copyFrom(c: pg.PoolClient, text: string, data: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const query = {
      submit: (con: CopyConnection) => con.query(text),
      handleCopyInResponse: (con: CopyConnection) => {
        con.sendCopyFromChunk(Buffer.from(data));
        con.endCopyFrom();
      },
      handleCommandComplete: () => undefined,
      handleReadyForQuery: () => resolve(),
      // pg forgets the query on an error, so ReadyForQuery does not reach it.
      handleError: (e: Error) => reject(e),
    };
    c.query(query as unknown as pg.Submittable);
  });
}

/** One value in COPY's text format: \N is NULL; backslash, tab, newline and return are escaped. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  const s = String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (ch) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[ch]!) : s;
}

async function insertRows(c: pg.PoolClient, t: TableLoad): Promise<void> {
  const text = `COPY ${t.table} (${t.columns.join(', ')}) FROM STDIN`;
  let lines: string[] = [];
  let inFlight: Promise<void> = Promise.resolve();
  const send = async () => {
    await inFlight;
    inFlight = copyFrom(c, text, lines.join(''));
    // Awaited before the next send or at the end; this only keeps an early failure from being reported as unhandled.
    inFlight.catch(() => undefined);
    lines = [];
  };
  await t.write({
    row: (...values: unknown[]) => {
      let line = copyValue(values[0]);
      for (let i = 1; i < values.length; i++) line += `\t${copyValue(values[i])}`;
      lines.push(`${line}\n`);
      return lines.length === BATCH;
    },
    drain: send,
  });
  if (lines.length) await send();
  await inFlight;
}

/** Runs `f` in a transaction with no statement timeout (an index build of a large seed may run past the server's). */
async function bulkTransaction(c: pg.PoolClient, f: () => Promise<void>): Promise<void> {
  await c.query('BEGIN');
  try {
    // SET LOCAL: the pooled connection goes back as it came. Without waiting for each commit's
    // flush: a crash loses the seed's last tables, never older rows.
    await c.query('SET LOCAL statement_timeout = 0');
    await c.query('SET LOCAL synchronous_commit = off');
    // The GIN index of a million videos' words (videos_search) builds in one pass with room to sort.
    await c.query("SET LOCAL maintenance_work_mem = '512MB'");
    await f();
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK');
    throw e;
  }
}

export function postgresLoader(pool: pg.Pool): SeedLoader {
  let client: pg.PoolClient | undefined;
  const session = () => {
    if (!client) throw new Error('seed: begin() first');
    return client;
  };
  return {
    async begin() {
      client = await pool.connect();
    },
    async load(t) {
      const c = session();
      await bulkTransaction(c, async () => {
        const dropped = await dropForLoad(c, t.table);
        await insertRows(c, t);
        for (const statement of dropped.recreate) await c.query(statement);
      });
    },
    async end() {
      client?.release();
      client = undefined;
    },
    async analyze() {
      const c = await pool.connect();
      try {
        await bulkTransaction(c, async () => {
          await c.query('ANALYZE');
        });
      } finally {
        c.release();
      }
    },
  };
}
