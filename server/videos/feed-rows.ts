import type SQLite from 'better-sqlite3';
import { perConnection } from '#db/per-connection';
import type { FeedItem } from '#sync/protocol/messages';
import { encodeFeedCursor as encodeCursor } from '#sync/protocol/feed-cursor';
import { FEED_ROW_COLUMNS, pageOf, toFeedItem, UNKNOWN_USER, type Cursor, type FeedRow, type Page, type ReadVia } from '../feed/items';
import { filtersVideos, readSafety, sqliteSafety, videoAuthorShown } from '../feed/safety';
import * as postgres from './feed-rows-postgres';
import { mediaPublicBase } from '../feed/public-media';

export { readVia, toFeedItem, UNKNOWN_USER, type FeedRow, type Page, type ReadVia } from '../feed/items';
export { encodeFeedCursor as encodeCursor, decodeFeedCursor as decodeCursor } from '#sync/protocol/feed-cursor';

// SQLite (3.53, as better-sqlite3 bundles it) marks a statement expired whenever a parameter is bound
// again whose value its plan may have looked at: a LIMIT's, and, once ANALYZE has left sqlite_stat4
// samples, one compared with an indexed column. better-sqlite3 binds every parameter on each call,
// so such a statement was parsed and planned again on every page (a fifth of the feed's SQLite time,
// perf; docs/benchmarks.md, "Mixed load"). The viewer goes in as a scalar subquery, whose value the
// planner does not look at (the likes lookup is still by likes_pk), and the limit as a literal.
const VIEWER = '(SELECT @viewer)';

// One query per page: the author's name and the viewer's like come from LEFT JOINs (no N+1), and
// the (created_at, id) row-value comparison walks the videos_feed index backwards.
const FEED_FROM = `FROM videos v
  LEFT JOIN profiles p ON p.id = v.user_id
  LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = ${VIEWER}`;
// Only its uploader sees a video before its renditions exist (docs/media.md, "What members see").
const VISIBLE = `(v.media_status = 'ready' OR v.user_id = ${VIEWER})`;

// The same item built by SQLite as JSON text: the feed route sends it without creating an object
// per row and field in JS (the feed is the hottest read). Must stay equal to toFeedItem.
const FEED_JSON = `json_object(
  'id', v.id, 'user_id', v.user_id, 'user_name', coalesce(p.name, '${UNKNOWN_USER}'), 'user_handle', coalesce(p.handle, ''),
  'title', v.title,
  'description', v.description, 'video_url', '/media/' || v.file_key,
  'poster_url', coalesce(CASE WHEN v.media_status = 'ready' THEN @public_base END, '/media') || '/' || v.poster_key,
  'created_at', strftime('%Y-%m-%dT%H:%M:%fZ', v.created_at / 1000.0, 'unixepoch'),
  'duration_ms', v.duration_ms, 'media_status', v.media_status, 'media_progress', v.media_progress,
  'media_error', v.media_error,
  'hls_url', CASE WHEN v.media_key IS NULL THEN NULL ELSE '/media/' || v.media_key || '/master.m3u8' END,
  'mp4_url', CASE WHEN v.media_key IS NULL THEN NULL ELSE '/media/' || v.media_key || '/small.mp4' END,
  'captions_url', CASE WHEN v.captions_key IS NULL THEN NULL ELSE '/media/' || v.captions_key END,
  'likes_count', v.likes_count, 'comments_count', v.comments_count,
  'shares_count', v.shares_count, 'views_count', v.views_count,
  'liked_by_me', json(CASE WHEN l.user_id IS NULL THEN 'false' ELSE 'true' END)
) AS j, v.created_at AS at, v.id AS id`;

/** `LIMIT n` for a page's row count, a literal (see VIEWER): an integer checked here, never text. */
function limitOf(rows: number): string {
  if (!Number.isSafeInteger(rows) || rows < 1) throw new RangeError(`a page of ${rows} rows`);
  return `LIMIT ${rows}`;
}

const ORDER = 'ORDER BY v.created_at DESC, v.id DESC';
const AFTER = '(v.created_at, v.id) < (@at, @id)';

type PageParams = { viewer: string };
type NextParams = PageParams & { at: number; id: string };
type JsonParams = { public_base: string | null };

/** A page's four statements for one row count (a page's limit plus one), prepared on first use. */
function pageStatements(sqlite: SQLite.Database, visible: string, rows: number) {
  const limit = limitOf(rows);
  return {
    firstPage: sqlite.prepare<PageParams, FeedRow>(`SELECT ${FEED_ROW_COLUMNS} ${FEED_FROM} WHERE ${visible} ${ORDER} ${limit}`),
    nextPage: sqlite.prepare<NextParams, FeedRow>(`SELECT ${FEED_ROW_COLUMNS} ${FEED_FROM} WHERE ${visible} AND ${AFTER} ${ORDER} ${limit}`),
    firstPageJson: sqlite
      .prepare<PageParams & JsonParams, [string, number, string]>(`SELECT ${FEED_JSON} ${FEED_FROM} WHERE ${visible} ${ORDER} ${limit}`)
      .raw(),
    nextPageJson: sqlite
      .prepare<NextParams & JsonParams, [string, number, string]>(`SELECT ${FEED_JSON} ${FEED_FROM} WHERE ${visible} AND ${AFTER} ${ORDER} ${limit}`)
      .raw(),
  };
}

function statementsWhere(sqlite: SQLite.Database, visible: string) {
  // Row counts come from validated limits (the feed route's, the pull's window pages): a few each.
  const byRows = new Map<number, ReturnType<typeof pageStatements>>();
  return {
    pages(rows: number) {
      let found = byRows.get(rows);
      if (!found) byRows.set(rows, (found = pageStatements(sqlite, visible, rows)));
      return found;
    },
    byIds: sqlite.prepare<{ viewer: string; ids: string }, FeedRow>(
      `SELECT ${FEED_ROW_COLUMNS} ${FEED_FROM} WHERE ${visible} AND v.id IN (SELECT value FROM json_each(@ids))`,
    ),
  };
}

// `plain` for a viewer who blocks and mutes nobody and whom nobody blocks (most members), `filtered`
// for the others (server/feed/safety.ts).
function statements(sqlite: SQLite.Database) {
  return { plain: statementsWhere(sqlite, VISIBLE), filtered: statementsWhere(sqlite, `${VISIBLE} AND ${videoAuthorShown('v.user_id')}`) };
}

/**
 * The prepared statements of the feed, compiled once per connection. Callers must hold the Kysely
 * connection (db.connection() or a transaction) so they never read another request's open
 * transaction on the single SQLite connection.
 */
export const feedStatements = perConnection(statements);

// The reads below take the SQLite path exactly as it was tuned (synchronous prepared statements,
// run while the caller holds the connection) or the PostgreSQL one (feed-rows-postgres.ts).

/** The viewer's statements: the filtered ones only for a viewer with blocks or mutes. */
function viewerStatements(sqlite: SQLite.Database, viewer: string) {
  const s = feedStatements(sqlite);
  return filtersVideos(sqliteSafety(sqlite, viewer)) ? s.filtered : s.plain;
}

function sqliteFeedPage(sqlite: SQLite.Database, viewer: string, limit: number, cursor: Cursor): Page<FeedItem> {
  const s = viewerStatements(sqlite, viewer).pages(limit + 1);
  const rows = cursor ? s.nextPage.all({ viewer, at: cursor.at, id: cursor.id }) : s.firstPage.all({ viewer });
  return pageOf(rows, limit, toFeedItem, (r) => [r.created_at, r.id]);
}

/** The feed page as the JSON text of {items, next_cursor}, for the feed route. */
export function sqliteFeedPageJson(sqlite: SQLite.Database, viewer: string, limit: number, cursor: Cursor): string {
  const s = viewerStatements(sqlite, viewer).pages(limit + 1);
  const public_base = mediaPublicBase();
  const rows = cursor ? s.nextPageJson.all({ viewer, at: cursor.at, id: cursor.id, public_base }) : s.firstPageJson.all({ viewer, public_base });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? JSON.stringify(encodeCursor(last[1], last[2])) : 'null';
  return `{"items":[${page.map((r) => r[0]).join(',')}],"next_cursor":${next}}`;
}

export async function readFeedPage(via: ReadVia, viewer: string, limit: number, cursor: Cursor): Promise<Page<FeedItem>> {
  if (via.dialect === 'sqlite') return sqliteFeedPage(via.sqlite, viewer, limit, cursor);
  return postgres.readFeedPage(via.db, viewer, limit, cursor, filtersVideos(await readSafety(via, viewer)));
}

export async function readFeedPageJson(via: ReadVia, viewer: string, limit: number, cursor: Cursor): Promise<string> {
  if (via.dialect === 'sqlite') return sqliteFeedPageJson(via.sqlite, viewer, limit, cursor);
  return postgres.readFeedPageJson(via.db, viewer, limit, cursor, filtersVideos(await readSafety(via, viewer)));
}

export async function readVideosByIds(via: ReadVia, viewer: string, ids: string[]): Promise<FeedItem[]> {
  if (!ids.length) return [];
  if (via.dialect === 'postgres') return postgres.readVideosByIds(via.db, viewer, ids, filtersVideos(await readSafety(via, viewer)));
  return viewerStatements(via.sqlite, viewer)
    .byIds.all({ viewer, ids: JSON.stringify(ids) })
    .map(toFeedItem);
}
