import type { IncomingMessage, ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import type pg from 'pg';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type RawBuilder,
} from 'kysely';
import type { Database as Schema } from '#db/schema';
import type { Dialect } from '#db/engine';
import { hashtagPage, hashtagSearchQuery, SEARCH_PAGE, tagPrefixOf } from '#server/discovery/search-hashtags';
import { exactHandleQuery, handlePrefixQuery, nameQuery, peoplePage, typedHandlePrefix, type Tiered } from '#server/discovery/search-people';
import { readVideoTiers, videoPage, type VideoRow } from '#server/discovery/search-videos';
import { matchesNames, searchWords } from '#server/discovery/search-words';

// The search benchmark's baseline (tests/bench/search.ts): GET /api/search?q=&type=&viewer= answered
// with the statements the route runs (built by server/discovery/search-*.ts for a viewer with no
// blocks or mutes, as every seeded member is), run by plain better-sqlite3 or pg, the same JSON.
// What it leaves out is the route's own cost: auth, validation, the blocks probe, Kysely's
// execution and Hono. Kysely's compiler writes each statement's text (microseconds, as the route's
// own does); the rest is the SQL and the JSON.

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
type Compiled = { sql: string; parameters: readonly unknown[] };
type Run = (c: Compiled) => Promise<Record<string, unknown>[]>;

/** A Kysely that only compiles: the statements' text and parameters as the server's dialect writes them. */
function compilerFor(dialect: Dialect): Kysely<Schema> {
  const postgres = dialect === 'postgres';
  return new Kysely<Schema>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
  });
}

const want = SEARCH_PAGE + 1;

/** The route's people tiers in its order (server/discovery/search-people.ts), each run while the page is short. */
function peopleSteps(dialect: Dialect, viewer: string, q: string): Array<(have: number) => RawBuilder<unknown> | null> {
  const prefix = typedHandlePrefix(q);
  const words = searchWords(q);
  return [
    () => (prefix ? exactHandleQuery(viewer, prefix, false) : null),
    (have) => (prefix ? handlePrefixQuery(viewer, prefix, '', want - have, false) : null),
    (have) => (have < want && matchesNames(words) ? nameQuery(dialect, viewer, words, prefix, null, want - have, false) : null),
  ];
}

async function people(kysely: Kysely<Schema>, run: Run, dialect: Dialect, viewer: string, q: string): Promise<unknown> {
  const rows: Tiered[] = [];
  for (const [tier, step] of peopleSteps(dialect, viewer, q).entries()) {
    const query = step(rows.length);
    if (query) rows.push(...((await run(query.compile(kysely))) as Tiered[]).map((r) => ({ ...r, tier: tier as Tiered['tier'] })));
  }
  return peoplePage(rows);
}

async function videos(kysely: Kysely<Schema>, run: Run, dialect: Dialect, viewer: string, q: string): Promise<unknown> {
  const words = searchWords(q);
  if (!words.length) return { items: [], next_cursor: null };
  const rows = await readVideoTiers(dialect, viewer, words, null, false, async (query) => (await run(query.compile(kysely))) as VideoRow[]);
  return videoPage(rows);
}

async function hashtags(kysely: Kysely<Schema>, run: Run, q: string): Promise<unknown> {
  const prefix = tagPrefixOf(q);
  if (prefix === null) return { items: [], next_cursor: null };
  return hashtagPage((await run(hashtagSearchQuery(prefix, null).compile(kysely))) as Array<{ tag: string; videos_count: number }>);
}

/** better-sqlite3 with one prepared statement per text (what db/statement-cache.ts gives the server). */
export function sqliteRun(file: string): Run {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const prepared = new Map<string, Database.Statement>();
  return async (c) => {
    let stmt = prepared.get(c.sql);
    if (!stmt) prepared.set(c.sql, (stmt = db.prepare(c.sql)));
    return stmt.all(...(c.parameters as unknown[])) as Record<string, unknown>[];
  };
}

/**
 * pg, each statement planned for its words (unnamed, so never a cached generic plan: the route asks
 * for a custom plan each time, server/discovery/search-videos.ts).
 */
export function postgresRun(pool: pg.Pool): Run {
  return async (c) => (await pool.query<Record<string, unknown>>(c.sql, c.parameters as unknown[])).rows;
}

export function searchHandler(dialect: Dialect, run: Run): Handler {
  const kysely = compilerFor(dialect);
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = (url.searchParams.get('q') ?? '').trim();
    const viewer = url.searchParams.get('viewer') ?? '';
    const type = url.searchParams.get('type');
    const body =
      type === 'people'
        ? await people(kysely, run, dialect, viewer, q)
        : type === 'videos'
          ? await videos(kysely, run, dialect, viewer, q)
          : await hashtags(kysely, run, q);
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
}
