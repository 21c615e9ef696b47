import type { Kysely, Selectable } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database, VideosTable } from '#db/schema';
import type { Engine } from '#db/engine';
import type { CommentItem, FeedItem } from '#sync/protocol/messages';
import { encodeFeedCursor } from '#sync/protocol/feed-cursor';
import { posterUrl } from './public-media';

/** A feed row as SQLite returns it, before it becomes the API shape. */
export type FeedRow = Pick<
  Selectable<VideosTable>,
  | 'id'
  | 'user_id'
  | 'title'
  | 'description'
  | 'file_key'
  | 'poster_key'
  | 'created_at'
  | 'duration_ms'
  | 'media_progress'
  | 'media_error'
  | 'media_key'
  | 'captions_key'
  | 'likes_count'
  | 'comments_count'
  | 'shares_count'
  | 'views_count'
> & {
  user_name: string | null;
  user_handle: string | null;
  media_status: FeedItem['media_status'];
  liked_by_me: number;
};

export interface CommentRow {
  id: string;
  video_id: string;
  user_id: string;
  user_name: string | null;
  user_handle: string | null;
  content: string;
  created_at: number;
  parent_id: string | null;
  reply_to_user_id: string | null;
  reply_to_handle: string | null;
  reply_count: number;
  likes_count: number;
  liked_by_me: number;
  pinned: number;
  deleted: number;
}

/**
 * The columns of a CommentRow, the same text on both engines: comments c, its author p, the author
 * it answers rp and the viewer's like cl, joined by the reads of server/videos/comment-rows.ts.
 */
export const COMMENT_COLUMNS = `c.id, c.video_id, c.user_id, p.name AS user_name, p.handle AS user_handle, c.content, c.created_at,
  c.parent_id, c.reply_to_user_id, rp.handle AS reply_to_handle, c.reply_count, c.likes_count, c.pinned, c.deleted,
  CASE WHEN cl.user_id IS NULL THEN 0 ELSE 1 END AS liked_by_me`;

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export type Cursor = { at: number; id: string } | null;

/**
 * Where a read of the feed rows runs. On SQLite, the raw connection: the caller holds it through
 * Kysely (db.connection() or a transaction), so the read never lands inside another request's open
 * transaction. On PostgreSQL, a Kysely executor: the pool, a held connection, or a transaction whose
 * snapshot the read must share.
 */
export type ReadVia = { dialect: 'sqlite'; sqlite: SQLite.Database } | { dialect: 'postgres'; db: Kysely<Database> };

export function readVia(engine: Engine, db: Kysely<Database>): ReadVia {
  return engine.dialect === 'sqlite' ? { dialect: 'sqlite', sqlite: engine.sqlite } : { dialect: 'postgres', db };
}

export const UNKNOWN_USER = 'Unknown User';

/**
 * The columns of a FeedRow, the same text on both engines (videos v, its author p and the viewer's
 * like l, joined by the caller): the reads that build the item in JS with toFeedItem.
 */
export const FEED_ROW_COLUMNS = `v.id, v.user_id, p.name AS user_name, p.handle AS user_handle, v.title, v.description, v.file_key, v.poster_key,
  v.created_at, v.duration_ms, v.media_status, v.media_progress, v.media_error, v.media_key, v.captions_key, v.likes_count, v.comments_count, v.shares_count, v.views_count,
  CASE WHEN l.user_id IS NULL THEN 0 ELSE 1 END AS liked_by_me`;

export function toFeedItem(r: FeedRow): FeedItem {
  return {
    id: r.id,
    user_id: r.user_id,
    user_name: r.user_name ?? UNKNOWN_USER,
    user_handle: r.user_handle ?? '',
    title: r.title,
    description: r.description,
    video_url: `/media/${r.file_key}`,
    poster_url: posterUrl(r.poster_key, r.media_status),
    created_at: new Date(r.created_at).toISOString(),
    duration_ms: r.duration_ms,
    media_status: r.media_status,
    media_progress: r.media_progress,
    media_error: r.media_error,
    hls_url: r.media_key ? `/media/${r.media_key}/master.m3u8` : null,
    mp4_url: r.media_key ? `/media/${r.media_key}/small.mp4` : null,
    captions_url: r.captions_key ? `/media/${r.captions_key}` : null,
    likes_count: r.likes_count,
    comments_count: r.comments_count,
    shares_count: r.shares_count,
    views_count: r.views_count,
    liked_by_me: r.liked_by_me === 1,
  };
}

/** The API item of a comment row; a tombstone shows neither its words nor its author. Mentions are filled by withMentions (mentions.ts). */
export function toCommentItem(r: CommentRow): CommentItem {
  const deleted = Number(r.deleted) === 1;
  return {
    id: r.id,
    video_id: r.video_id,
    user_id: r.user_id,
    name: deleted ? '' : (r.user_name ?? UNKNOWN_USER),
    handle: deleted ? '' : (r.user_handle ?? ''),
    content: deleted ? '' : r.content,
    created_at: new Date(Number(r.created_at)).toISOString(),
    parent_id: r.parent_id,
    reply_to_user_id: r.reply_to_user_id,
    reply_to_handle: r.reply_to_handle,
    reply_count: Number(r.reply_count),
    likes_count: Number(r.likes_count),
    liked_by_me: Number(r.liked_by_me) === 1,
    pinned: Number(r.pinned) === 1,
    deleted,
    mentions: [],
  };
}

/**
 * A page from `limit + 1` rows (the extra row tells whether another page exists without a count
 * query); the cursor is the last row kept.
 */
export function pageOf<R, T>(rows: R[], limit: number, item: (r: R) => T, key: (r: R) => [number, string]): Page<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(item), next_cursor: rows.length > limit && last ? encodeFeedCursor(...key(last)) : null };
}
