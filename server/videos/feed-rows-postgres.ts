import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { FeedItem } from '#sync/protocol/messages';
import { encodeFeedCursor } from '#sync/protocol/feed-cursor';
import { pageOf, UNKNOWN_USER, type Cursor, type Page } from '../feed/items';
import { videoAuthorShown, withViewer } from '../feed/safety';
import { mediaPublicBase } from '../feed/public-media';

// The PostgreSQL twins of the SQLite statements in feed-rows.ts. Every text below is fixed (only
// parameters vary), so db/postgres.ts runs each as a named prepared statement: parsed and planned
// once per connection. Plans are checked by tests/postgres/plans-feed.test.ts.

// The feed item built by PostgreSQL as JSON text, as SQLite's json_object does on the other engine:
// the route sends it without an object per row and field in JS. Must stay equal to toFeedItem. The
// time is computed from whole milliseconds (no float seconds), so it renders exactly as
// Date.toISOString does; `'/media/' || NULL` is NULL, as toFeedItem's null URLs.
// poster_url is the public base's copy for a ready video when MEDIA_PUBLIC_BASE_URL is set (a
// parameter: the text stays fixed; server/feed/public-media.ts), else /media, as toFeedItem's.
const feedJson = () => sql`json_build_object(
  'id', v.id, 'user_id', v.user_id, 'user_name', coalesce(p.name, '${sql.raw(UNKNOWN_USER)}'), 'user_handle', coalesce(p.handle, ''),
  'title', v.title,
  'description', v.description, 'video_url', '/media/' || v.file_key,
  'poster_url', coalesce(CASE WHEN v.media_status = 'ready' THEN ${mediaPublicBase()}::text END, '/media') || '/' || v.poster_key,
  'created_at', to_char(timestamp '1970-01-01' + v.created_at * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'duration_ms', v.duration_ms, 'media_status', v.media_status, 'media_progress', v.media_progress,
  'media_error', v.media_error, 'hls_url', '/media/' || v.media_key || '/master.m3u8',
  'mp4_url', '/media/' || v.media_key || '/small.mp4', 'captions_url', '/media/' || v.captions_key,
  'likes_count', v.likes_count, 'comments_count', v.comments_count,
  'shares_count', v.shares_count, 'views_count', v.views_count,
  'liked_by_me', l.user_id IS NOT NULL
)::text AS j, v.created_at AS at, v.id AS id`;

interface JsonRow {
  j: string;
  at: number;
  id: string;
}

// The author's name and the viewer's like come from LEFT JOINs (primary-key probes, no N+1); only
// its uploader sees a video before its renditions exist (docs/media.md, "What members see"). The
// filtered text (a viewer with blocks or mutes, server/feed/safety.ts) also leaves out the authors
// blocked either way or muted.
const feedFrom = (viewer: string, filtered: boolean) => sql`FROM videos v
  LEFT JOIN profiles p ON p.id = v.user_id
  LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = ${viewer}
  WHERE (v.media_status = 'ready' OR v.user_id = ${viewer})${filtered ? sql` AND ${withViewer(videoAuthorShown('v.user_id'), viewer)}` : sql``}`;

const NEWEST_FIRST = sql.raw('ORDER BY v.created_at DESC, v.id DESC');

/** One feed page (limit rows, the caller asks one more); the row-value cursor walks videos_feed backwards. */
export function feedPageQuery(viewer: string, limit: number, cursor: Cursor, filtered: boolean): RawBuilder<JsonRow> {
  const from = feedFrom(viewer, filtered);
  return cursor
    ? sql<JsonRow>`SELECT ${feedJson()} ${from} AND (v.created_at, v.id) < (${cursor.at}, ${cursor.id}) ${NEWEST_FIRST} LIMIT ${limit}`
    : sql<JsonRow>`SELECT ${feedJson()} ${from} ${NEWEST_FIRST} LIMIT ${limit}`;
}

async function feedRows(db: Kysely<Database>, viewer: string, limit: number, cursor: Cursor, filtered: boolean): Promise<JsonRow[]> {
  return (await feedPageQuery(viewer, limit + 1, cursor, filtered).execute(db)).rows;
}

export async function readFeedPageJson(db: Kysely<Database>, viewer: string, limit: number, cursor: Cursor, filtered: boolean): Promise<string> {
  const rows = await feedRows(db, viewer, limit, cursor, filtered);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? JSON.stringify(encodeFeedCursor(last.at, last.id)) : 'null';
  return `{"items":[${page.map((r) => r.j).join(',')}],"next_cursor":${next}}`;
}

export async function readFeedPage(db: Kysely<Database>, viewer: string, limit: number, cursor: Cursor, filtered: boolean): Promise<Page<FeedItem>> {
  return pageOf(
    await feedRows(db, viewer, limit, cursor, filtered),
    limit,
    (r) => JSON.parse(r.j) as FeedItem,
    (r) => [r.at, r.id],
  );
}

/** The visible videos among `ids` (one array parameter: one statement text for any number of ids). */
export async function readVideosByIds(db: Kysely<Database>, viewer: string, ids: string[], filtered: boolean): Promise<FeedItem[]> {
  const { rows } = await sql<JsonRow>`SELECT ${feedJson()} ${feedFrom(viewer, filtered)} AND v.id = ANY(${ids}::text[])`.execute(db);
  return rows.map((r) => JSON.parse(r.j) as FeedItem);
}
