import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { CommentItem, FeedItem } from '#sync/protocol/messages';
import { encodeFeedCursor } from '#sync/protocol/feed-cursor';
import { COMMENT_COLUMNS as COMMENT_COLUMN_TEXT, pageOf, toCommentItem, UNKNOWN_USER, type CommentRow, type Cursor, type Page } from '../feed/items';

// The PostgreSQL twins of the SQLite statements in feed-rows.ts. Every text below is fixed (only
// parameters vary), so db/postgres.ts runs each as a named prepared statement: parsed and planned
// once per connection. Plans are checked by tests/postgres/plans-feed.test.ts.

// The feed item built by PostgreSQL as JSON text, as SQLite's json_object does on the other engine:
// the route sends it without an object per row and field in JS. Must stay equal to toFeedItem. The
// time is computed from whole milliseconds (no float seconds), so it renders exactly as
// Date.toISOString does; `'/media/' || NULL` is NULL, as toFeedItem's null URLs.
const FEED_JSON = sql.raw(`json_build_object(
  'id', v.id, 'user_id', v.user_id, 'user_name', coalesce(p.name, '${UNKNOWN_USER}'), 'user_handle', coalesce(p.handle, ''),
  'title', v.title,
  'description', v.description, 'video_url', '/media/' || v.file_key, 'poster_url', '/media/' || v.poster_key,
  'created_at', to_char(timestamp '1970-01-01' + v.created_at * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'duration_ms', v.duration_ms, 'media_status', v.media_status, 'media_progress', v.media_progress,
  'media_error', v.media_error, 'hls_url', '/media/' || v.media_key || '/master.m3u8',
  'mp4_url', '/media/' || v.media_key || '/small.mp4', 'captions_url', '/media/' || v.captions_key,
  'likes_count', v.likes_count, 'comments_count', v.comments_count,
  'shares_count', v.shares_count, 'views_count', v.views_count,
  'liked_by_me', l.user_id IS NOT NULL
)::text AS j, v.created_at AS at, v.id AS id`);

interface JsonRow {
  j: string;
  at: number;
  id: string;
}

// The author's name and the viewer's like come from LEFT JOINs (primary-key probes, no N+1); only
// its uploader sees a video before its renditions exist (docs/media.md, "What members see").
const feedFrom = (viewer: string) => sql`FROM videos v
  LEFT JOIN profiles p ON p.id = v.user_id
  LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = ${viewer}
  WHERE (v.media_status = 'ready' OR v.user_id = ${viewer})`;

const NEWEST_FIRST = sql.raw('ORDER BY v.created_at DESC, v.id DESC');

/** One feed page (limit rows, the caller asks one more); the row-value cursor walks videos_feed backwards. */
export function feedPageQuery(viewer: string, limit: number, cursor: Cursor): RawBuilder<JsonRow> {
  return cursor
    ? sql<JsonRow>`SELECT ${FEED_JSON} ${feedFrom(viewer)} AND (v.created_at, v.id) < (${cursor.at}, ${cursor.id}) ${NEWEST_FIRST} LIMIT ${limit}`
    : sql<JsonRow>`SELECT ${FEED_JSON} ${feedFrom(viewer)} ${NEWEST_FIRST} LIMIT ${limit}`;
}

const COMMENT_COLUMNS = sql.raw(COMMENT_COLUMN_TEXT);
/** The tables of COMMENT_COLUMNS, the viewer's like joined. */
const commentFrom = (viewer: string) => sql`FROM comments c LEFT JOIN profiles p ON p.id = c.user_id LEFT JOIN profiles rp ON rp.id = c.reply_to_user_id
  LEFT JOIN comment_likes cl ON cl.comment_id = c.id AND cl.user_id = ${viewer}`;
const COMMENTS_NEWEST_FIRST = sql.raw('ORDER BY c.created_at DESC, c.id DESC');

/** One page of a video's top-level comments, walking comments_top backwards. */
export function commentsPageQuery(viewer: string, videoId: string, limit: number, cursor: Cursor): RawBuilder<CommentRow> {
  return cursor
    ? sql<CommentRow>`SELECT ${COMMENT_COLUMNS} ${commentFrom(viewer)}
        WHERE c.video_id = ${videoId} AND c.parent_id IS NULL AND (c.created_at, c.id) < (${cursor.at}, ${cursor.id}) ${COMMENTS_NEWEST_FIRST} LIMIT ${limit}`
    : sql<CommentRow>`SELECT ${COMMENT_COLUMNS} ${commentFrom(viewer)}
        WHERE c.video_id = ${videoId} AND c.parent_id IS NULL ${COMMENTS_NEWEST_FIRST} LIMIT ${limit}`;
}

async function feedRows(db: Kysely<Database>, viewer: string, limit: number, cursor: Cursor): Promise<JsonRow[]> {
  return (await feedPageQuery(viewer, limit + 1, cursor).execute(db)).rows;
}

export async function readFeedPageJson(db: Kysely<Database>, viewer: string, limit: number, cursor: Cursor): Promise<string> {
  const rows = await feedRows(db, viewer, limit, cursor);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? JSON.stringify(encodeFeedCursor(last.at, last.id)) : 'null';
  return `{"items":[${page.map((r) => r.j).join(',')}],"next_cursor":${next}}`;
}

export async function readFeedPage(db: Kysely<Database>, viewer: string, limit: number, cursor: Cursor): Promise<Page<FeedItem>> {
  return pageOf(
    await feedRows(db, viewer, limit, cursor),
    limit,
    (r) => JSON.parse(r.j) as FeedItem,
    (r) => [r.at, r.id],
  );
}

/** The visible videos among `ids` (one array parameter: one statement text for any number of ids). */
export async function readVideosByIds(db: Kysely<Database>, viewer: string, ids: string[]): Promise<FeedItem[]> {
  const { rows } = await sql<JsonRow>`SELECT ${FEED_JSON} ${feedFrom(viewer)} AND v.id = ANY(${ids}::text[])`.execute(db);
  return rows.map((r) => JSON.parse(r.j) as FeedItem);
}

export async function readCommentsPage(db: Kysely<Database>, viewer: string, videoId: string, limit: number, cursor: Cursor): Promise<Page<CommentItem>> {
  const { rows } = await commentsPageQuery(viewer, videoId, limit + 1, cursor).execute(db);
  return pageOf(rows, limit, toCommentItem, (r) => [r.created_at, r.id]);
}

export async function readCommentsByIds(db: Kysely<Database>, viewer: string, ids: string[]): Promise<CommentItem[]> {
  const { rows } = await sql<CommentRow>`SELECT ${COMMENT_COLUMNS} ${commentFrom(viewer)}
    WHERE c.id = ANY(${ids}::text[])`.execute(db);
  return rows.map(toCommentItem);
}

/**
 * The newest `perVideo` comments of each video, in the order of `videoIds`: one statement (a
 * LATERAL walk of comments_video_time_id per video) instead of a round trip per video.
 */
export async function readNewestComments(db: Kysely<Database>, viewer: string, videoIds: string[], perVideo: number): Promise<CommentItem[]> {
  const { rows } = await sql<CommentRow>`SELECT ${COMMENT_COLUMNS}
    FROM unnest(${videoIds}::text[]) WITH ORDINALITY AS o(video_id, n)
    CROSS JOIN LATERAL (SELECT * FROM comments c WHERE c.video_id = o.video_id AND c.parent_id IS NULL ${COMMENTS_NEWEST_FIRST} LIMIT ${perVideo}) c
    LEFT JOIN profiles p ON p.id = c.user_id LEFT JOIN profiles rp ON rp.id = c.reply_to_user_id
    LEFT JOIN comment_likes cl ON cl.comment_id = c.id AND cl.user_id = ${viewer}
    ORDER BY o.n, c.created_at DESC, c.id DESC`.execute(db);
  return rows.map(toCommentItem);
}
