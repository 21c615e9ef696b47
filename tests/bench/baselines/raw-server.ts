import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import { toFeedItem, type FeedRow } from '#server/videos/feed-rows';
import { postgresRun, searchHandler, sqliteRun } from './search';

// Baselines for the benchmarks: the least a plain node:http server needs to answer the same thing.
// Run as a child process: `node --import tsx tests/bench/baselines/raw-server.ts <health|feed|feed-pg|following-pg|put|search-sqlite|search-pg>`.

const mode = process.argv[2];
type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function healthHandler(): Handler {
  return (_req, res) => json(res, 200, { status: 'ok' });
}

/** The same rows as the feed's first page, read with one prepared statement, same JSON fields. */
function feedHandler(): Handler {
  const db = new Database(process.env.BENCH_DB ?? '', { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const viewer = process.env.BENCH_VIEWER ?? '';
  const stmt = db.prepare<{ viewer: string; limit: number }, FeedRow>(
    `SELECT v.id, v.user_id, p.name AS user_name, p.handle AS user_handle, v.title, v.description, v.file_key, v.poster_key, v.created_at, v.duration_ms,
       v.media_status, v.media_progress, v.media_error, v.media_key, v.captions_key,
       v.likes_count, v.comments_count, v.shares_count, v.views_count, (l.user_id IS NOT NULL) AS liked_by_me
     FROM videos v LEFT JOIN profiles p ON p.id = v.user_id LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = @viewer
     WHERE v.media_status = 'ready' OR v.user_id = @viewer
     ORDER BY v.created_at DESC, v.id DESC LIMIT @limit`,
  );
  return (req, res) => {
    const limit = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit') ?? 20);
    const rows = stmt.all({ viewer, limit });
    // The server's own row-to-JSON mapping, so both sides answer byte-for-byte the same items.
    const items = rows.map(toFeedItem);
    const last = rows[rows.length - 1];
    json(res, 200, { items, next_cursor: last ? Buffer.from(`${last.created_at}:${last.id}`).toString('base64url') : null });
  };
}

/** feedHandler's query on PostgreSQL: the same columns, visibility rule and order; liked_by_me as 0/1, as SQLite gives it. */
const FEED_PG = `SELECT v.id, v.user_id, p.name AS user_name, p.handle AS user_handle, v.title, v.description, v.file_key, v.poster_key,
       v.created_at, v.duration_ms, v.media_status, v.media_progress, v.media_error, v.media_key, v.captions_key,
       v.likes_count, v.comments_count, v.shares_count, v.views_count, CASE WHEN l.user_id IS NULL THEN 0 ELSE 1 END AS liked_by_me
     FROM videos v LEFT JOIN profiles p ON p.id = v.user_id LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = $1
     WHERE v.media_status = 'ready' OR v.user_id = $1
     ORDER BY v.created_at DESC, v.id DESC LIMIT $2`;

/**
 * The PostgreSQL twin of feedHandler: a pg pool of the server's default size (10), the query as a
 * named prepared statement (as db/postgres.ts runs the server's), int8 read as numbers (as the
 * server's pool does), the same JSON.
 */
function benchPool(): pg.Pool {
  const INT8 = 20;
  return new pg.Pool({
    connectionString: process.env.BENCH_DATABASE_URL,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
}

function feedPostgresHandler(): Handler {
  const pool = benchPool();
  const viewer = process.env.BENCH_VIEWER ?? '';
  return async (req, res) => {
    const limit = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit') ?? 20);
    const { rows } = await pool.query<FeedRow>({ name: 'feed', text: FEED_PG, values: [viewer, limit] });
    const items = rows.map(toFeedItem);
    const last = rows[rows.length - 1];
    json(res, 200, { items, next_cursor: last ? Buffer.from(`${last.created_at}:${last.id}`).toString('base64url') : null });
  };
}

/** The Following feed's statement (server/people/video-reads.ts), for `?viewer=`: a LATERAL top-N per followed creator. */
const FOLLOWING_PG = `SELECT v.id, v.user_id, p.name AS user_name, p.handle AS user_handle, v.title, v.description, v.file_key, v.poster_key,
       v.created_at, v.duration_ms, v.media_status, v.media_progress, v.media_error, v.media_key, v.captions_key,
       v.likes_count, v.comments_count, v.shares_count, v.views_count, CASE WHEN l.user_id IS NULL THEN 0 ELSE 1 END AS liked_by_me
     FROM (SELECT w.id, w.created_at FROM follows f
       CROSS JOIN LATERAL (SELECT w.created_at, w.id FROM videos w WHERE w.user_id = f.followee_id AND w.media_status = 'ready'
         ORDER BY w.created_at DESC, w.id DESC LIMIT $2) w
       WHERE f.follower_id = $1 ORDER BY w.created_at DESC, w.id DESC LIMIT $2) page
     JOIN videos v ON v.id = page.id LEFT JOIN profiles p ON p.id = v.user_id LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = $1
     ORDER BY v.created_at DESC, v.id DESC`;

/** The Following feed's first page of `?viewer=` with plain pg: the pool and JSON as feedPostgresHandler. */
function followingPostgresHandler(): Handler {
  const pool = benchPool();
  return async (req, res) => {
    const viewer = new URL(req.url ?? '/', 'http://x').searchParams.get('viewer') ?? '';
    const { rows } = await pool.query<FeedRow>({ name: 'following', text: FOLLOWING_PG, values: [viewer, 21] });
    const page = rows.slice(0, 20);
    const last = page[page.length - 1];
    json(res, 200, {
      items: page.map(toFeedItem),
      next_cursor: rows.length > 20 && last ? Buffer.from(`${last.created_at}:${last.id}`).toString('base64url') : null,
    });
  };
}

/** A streamed PUT into a file, fsynced before the answer: the floor for an upload's bytes. */
function putHandler(): Handler {
  const dir = process.env.BENCH_PUT_DIR ?? '';
  let n = 0;
  return async (req, res) => {
    if (req.method === 'DELETE') {
      await rm(join(dir, decodeURIComponent((req.url ?? '').slice(1))), { force: true });
      res.writeHead(204).end();
      return;
    }
    const name = `put-${process.pid}-${n++}`;
    const fh = await open(join(dir, name), 'w');
    try {
      for await (const chunk of req) await fh.write(chunk as Buffer);
      await fh.sync();
    } finally {
      await fh.close();
    }
    json(res, 201, { name });
  };
}

/**
 * Attribution for the API floor, not baselines: the same answer through bare Hono on
 * @hono/node-server, and through Hono with one trivial global middleware (the smallest change that
 * moves @hono/node-server off its synchronous fast path).
 */
function honoHealthHandler(middleware: boolean): () => Handler {
  return () => {
    const app = new Hono();
    if (middleware) app.use('*', async (_c, next) => next());
    app.get('/api/health', (c) => c.json({ status: 'ok' }));
    return getRequestListener(app.fetch);
  };
}

const handlers: Record<string, () => Handler> = {
  health: healthHandler,
  feed: feedHandler,
  'feed-pg': feedPostgresHandler,
  'following-pg': followingPostgresHandler,
  put: putHandler,
  'search-sqlite': () => searchHandler('sqlite', sqliteRun(process.env.BENCH_DB ?? '')),
  'search-pg': () => searchHandler('postgres', postgresRun(benchPool())),
  'hono-health': honoHealthHandler(false),
  'hono-middleware-health': honoHealthHandler(true),
};
const make = mode ? handlers[mode] : undefined;
if (!make) {
  console.error(`usage: raw-server.ts <${Object.keys(handlers).join('|')}>`);
  process.exit(2);
}
const handler = make();
const server = createServer((req, res) => {
  Promise.resolve(handler(req, res)).catch((e: unknown) => {
    if (!res.headersSent) json(res, 500, { error: { code: 'baseline_error', message: String(e) } });
    else res.destroy();
  });
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  console.log(`baseline listening on ${typeof addr === 'object' && addr ? addr.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
