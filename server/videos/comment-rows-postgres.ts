import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import { COMMENT_COLUMNS as COMMENT_COLUMN_TEXT, type CommentRow, type Cursor } from '../feed/items';
import { notBlocked, PARENT_SHOWN, withViewer } from '../feed/safety';

// The PostgreSQL twins of the SQLite statements in comment-rows.ts: fixed texts (only parameters
// vary), so db/postgres.ts prepares each once per connection. Plans are checked by
// tests/postgres/plans-feed.test.ts: comments_top backwards, comments_thread forwards, the pin by keys.

const COMMENT_COLUMNS = sql.raw(COMMENT_COLUMN_TEXT);
/** The author, the author a reply answers and the viewer's like of comments c (primary-key probes). */
const commentJoins = (viewer: string) => sql`LEFT JOIN profiles p ON p.id = c.user_id LEFT JOIN profiles rp ON rp.id = c.reply_to_user_id
  LEFT JOIN comment_likes cl ON cl.comment_id = c.id AND cl.user_id = ${viewer}`;
const NEWEST_FIRST = sql.raw('ORDER BY c.created_at DESC, c.id DESC');
const OLDEST_FIRST = sql.raw('ORDER BY c.created_at, c.id');
// The pinned comment is listed on its own, first: the others' pages leave it out.
const TOP_UNPINNED = sql.raw('c.parent_id IS NULL AND c.pinned = 0');
// For a viewer with blocks (`filtered`, server/feed/safety.ts): the author, and the parent's author
// of a reply, are not blocked either way. Nothing for everyone else: the statement stays as it was.
const authorShown = (viewer: string, filtered: boolean) => (filtered ? sql` AND ${withViewer(notBlocked('c.user_id'), viewer)}` : sql``);
const parentShown = (viewer: string, filtered: boolean) => (filtered ? sql` AND ${withViewer(PARENT_SHOWN, viewer)}` : sql``);

/** One page of a video's top-level comments but the pinned one, walking comments_top backwards. */
export function topPageQuery(viewer: string, videoId: string, limit: number, cursor: Cursor, filtered: boolean): RawBuilder<CommentRow> {
  const after = cursor ? sql`AND (c.created_at, c.id) < (${cursor.at}, ${cursor.id})` : sql``;
  if (!filtered)
    return sql<CommentRow>`SELECT ${COMMENT_COLUMNS} FROM comments c ${commentJoins(viewer)}
      WHERE c.video_id = ${videoId} AND ${TOP_UNPINNED} ${after} ${NEWEST_FIRST} LIMIT ${limit}`;
  // Filtered, the page is found first on comments alone, then joined: with the joins in the same
  // query the planner may guess the filter keeps few rows and trade the walk for a sort of them all
  // (tests/postgres/plans-feed.test.ts). The page comes out in the walk's order.
  return sql<CommentRow>`SELECT ${COMMENT_COLUMNS} FROM (
      SELECT * FROM comments c WHERE c.video_id = ${videoId} AND ${TOP_UNPINNED}${authorShown(viewer, true)} ${after} ${NEWEST_FIRST} LIMIT ${limit}
    ) c ${commentJoins(viewer)} ${NEWEST_FIRST}`;
}

/** The video's pinned comment, by keys only: the video names it (videos.pinned_comment_id). */
export function pinnedQuery(viewer: string, videoId: string, filtered: boolean): RawBuilder<CommentRow> {
  return sql<CommentRow>`SELECT ${COMMENT_COLUMNS} FROM videos v
    JOIN comments c ON c.id = v.pinned_comment_id AND c.parent_id IS NULL ${commentJoins(viewer)}
    WHERE v.id = ${videoId}${authorShown(viewer, filtered)}`;
}

/** One page of a thread's replies, oldest first, walking comments_thread forwards. */
export function threadPageQuery(viewer: string, parentId: string, limit: number, cursor: Cursor, filtered: boolean): RawBuilder<CommentRow> {
  const after = cursor ? sql`AND (c.created_at, c.id) > (${cursor.at}, ${cursor.id})` : sql``;
  return sql<CommentRow>`SELECT ${COMMENT_COLUMNS} FROM comments c ${commentJoins(viewer)}
    WHERE c.parent_id = ${parentId}${authorShown(viewer, filtered)} ${after} ${OLDEST_FIRST} LIMIT ${limit}`;
}

export async function readTopRows(db: Kysely<Database>, viewer: string, videoId: string, limit: number, cursor: Cursor, filtered: boolean) {
  const pinned = cursor ? [] : (await pinnedQuery(viewer, videoId, filtered).execute(db)).rows;
  return { pinned, rows: (await topPageQuery(viewer, videoId, limit, cursor, filtered).execute(db)).rows };
}

export async function readThreadRows(
  db: Kysely<Database>,
  viewer: string,
  parentId: string,
  limit: number,
  cursor: Cursor,
  filtered: boolean,
): Promise<CommentRow[]> {
  return (await threadPageQuery(viewer, parentId, limit, cursor, filtered).execute(db)).rows;
}

export async function readRowsByIds(db: Kysely<Database>, viewer: string, ids: string[], filtered: boolean): Promise<CommentRow[]> {
  return (
    await sql<CommentRow>`SELECT ${COMMENT_COLUMNS} FROM comments c ${commentJoins(viewer)}
      WHERE c.id = ANY(${ids}::text[])${authorShown(viewer, filtered)}${parentShown(viewer, filtered)}`.execute(db)
  ).rows;
}

/**
 * Each video's pinned comment and its newest `perVideo` other top-level ones, in the order of
 * `videoIds`: one statement (a LATERAL pin lookup and comments_top walk per video) instead of a
 * round trip per video.
 */
/** How many of the viewer's own newest replies a full list carries (comment-rows.ts says why). */
export const OWN_REPLIES_PER_VIDEO = 50;

export function newestQuery(viewer: string, videoIds: string[], perVideo: number, filtered: boolean): RawBuilder<CommentRow> {
  return sql<CommentRow>`SELECT ${COMMENT_COLUMNS}
    FROM unnest(${videoIds}::text[]) WITH ORDINALITY AS o(video_id, n)
    CROSS JOIN LATERAL (
      (SELECT c.* FROM videos v JOIN comments c ON c.id = v.pinned_comment_id AND c.parent_id IS NULL
        WHERE v.id = o.video_id${authorShown(viewer, filtered)})
      UNION ALL
      (SELECT * FROM comments c WHERE c.video_id = o.video_id AND ${TOP_UNPINNED}${authorShown(viewer, filtered)} ${NEWEST_FIRST} LIMIT ${perVideo})
      UNION ALL
      (SELECT * FROM comments c WHERE c.user_id = ${viewer} AND c.video_id = o.video_id AND c.parent_id IS NOT NULL${parentShown(viewer, filtered)}
        ORDER BY c.created_at DESC LIMIT ${OWN_REPLIES_PER_VIDEO})
    ) c
    ${commentJoins(viewer)}
    ORDER BY o.n, c.pinned DESC, c.created_at DESC, c.id DESC`;
}

export async function readNewestRows(db: Kysely<Database>, viewer: string, videoIds: string[], perVideo: number, filtered: boolean): Promise<CommentRow[]> {
  return (await newestQuery(viewer, videoIds, perVideo, filtered).execute(db)).rows;
}
