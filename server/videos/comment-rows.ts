import type SQLite from 'better-sqlite3';
import { perConnection } from '#db/per-connection';
import type { CommentItem } from '#sync/protocol/messages';
import { COMMENT_COLUMNS, pageOf, toCommentItem, type CommentRow, type Cursor, type Page, type ReadVia } from '../feed/items';
import { withMentions } from '../feed/mentions';
import { notBlocked, PARENT_SHOWN, readSafety, sqliteSafety } from '../feed/safety';
import * as postgres from './comment-rows-postgres';
import { OWN_REPLIES_PER_VIDEO } from './comment-rows-postgres';

// A video's comment list (docs/sync.md, "A video's comments"): its pinned comment first, found by
// the video's key, then the other top-level comments newest first (comments_top backwards); a
// thread's replies oldest first (comments_thread forwards). One query per page each (the author,
// the author a reply answers and the viewer's like are LEFT JOINs), and one more for the page's
// mentions.

const JOINS = `LEFT JOIN profiles p ON p.id = c.user_id LEFT JOIN profiles rp ON rp.id = c.reply_to_user_id
  LEFT JOIN comment_likes cl ON cl.comment_id = c.id AND cl.user_id = @viewer`;
// The pinned comment is listed on its own, first: the others' pages leave it out.
const TOP_UNPINNED = `c.video_id = @video AND c.parent_id IS NULL AND c.pinned = 0`;

type Viewer = { viewer: string };
type Paged = Viewer & { limit: number };
type After = { at: number; id: string };

// `shown` narrows every statement: nothing for a viewer who blocks nobody and whom nobody blocks
// (most members), the author and the parent's author not blocked either way for the others.
function statementsWhere(sqlite: SQLite.Database, author: string, parent: string) {
  const select = <P extends object>(where: string) => sqlite.prepare<P, CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM comments c ${JOINS} WHERE ${where}`);
  return {
    topFirst: select<Paged & { video: string }>(`${TOP_UNPINNED}${author} ORDER BY c.created_at DESC, c.id DESC LIMIT @limit`),
    topNext: select<Paged & After & { video: string }>(
      `${TOP_UNPINNED}${author} AND (c.created_at, c.id) < (@at, @id) ORDER BY c.created_at DESC, c.id DESC LIMIT @limit`,
    ),
    pinned: sqlite.prepare<Viewer & { video: string }, CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM videos v JOIN comments c ON c.id = v.pinned_comment_id AND c.parent_id IS NULL ${JOINS}
       WHERE v.id = @video${author}`,
    ),
    // The route checked the parent (a hidden one answers 404).
    threadFirst: select<Paged & { parent: string }>(`c.parent_id = @parent${author} ORDER BY c.created_at, c.id LIMIT @limit`),
    threadNext: select<Paged & After & { parent: string }>(
      `c.parent_id = @parent${author} AND (c.created_at, c.id) > (@at, @id) ORDER BY c.created_at, c.id LIMIT @limit`,
    ),
    byIds: select<Viewer & { ids: string }>(`c.id IN (SELECT value FROM json_each(@ids))${author}${parent}`),
    // comments_user_video backwards; the thread's own rows are left to its page.
    ownReplies: select<Paged & { video: string }>(
      `c.user_id = @viewer AND c.video_id = @video AND c.parent_id IS NOT NULL${parent} ORDER BY c.created_at DESC LIMIT @limit`,
    ),
  };
}

function statements(sqlite: SQLite.Database) {
  return { plain: statementsWhere(sqlite, '', ''), filtered: statementsWhere(sqlite, ` AND ${notBlocked('c.user_id')}`, ` AND ${PARENT_SHOWN}`) };
}

/** The comment statements, compiled once per connection (callers hold the Kysely connection, as for feed-rows.ts). */
export const commentStatements = perConnection(statements);

/** The viewer's statements: the filtered ones only for a viewer with blocks (server/feed/safety.ts). */
function viewerStatements(sqlite: SQLite.Database, viewer: string) {
  const s = commentStatements(sqlite);
  return sqliteSafety(sqlite, viewer).blocks ? s.filtered : s.plain;
}

function sqliteTopRows(sqlite: SQLite.Database, viewer: string, video: string, limit: number, cursor: Cursor) {
  const s = viewerStatements(sqlite, viewer);
  if (cursor) return { pinned: [], rows: s.topNext.all({ viewer, video, limit, ...cursor }) };
  return { pinned: s.pinned.all({ viewer, video }), rows: s.topFirst.all({ viewer, video, limit }) };
}

async function topRows(via: ReadVia, viewer: string, videoId: string, limit: number, cursor: Cursor) {
  if (via.dialect === 'sqlite') return sqliteTopRows(via.sqlite, viewer, videoId, limit, cursor);
  return postgres.readTopRows(via.db, viewer, videoId, limit, cursor, (await readSafety(via, viewer)).blocks);
}

const key = (r: CommentRow): [number, string] => [Number(r.created_at), r.id];
/** PostgreSQL's order of a full list after its pin (ORDER BY created_at DESC, id DESC; ids compare by code unit, as collate "C"). */
const newestFirst = (a: CommentRow, b: CommentRow) => Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

async function mentioned(via: ReadVia, page: Page<CommentItem>): Promise<Page<CommentItem>> {
  return { items: await withMentions(via, page.items), next_cursor: page.next_cursor };
}

/**
 * One page of a video's top-level comments: on the first page the pinned one comes first (beyond
 * `limit`), then `limit` others newest first; the cursor walks on below the last of those.
 */
export async function readCommentsPage(via: ReadVia, viewer: string, videoId: string, limit: number, cursor: Cursor): Promise<Page<CommentItem>> {
  const { pinned, rows } = await topRows(via, viewer, videoId, limit + 1, cursor);
  const page = pageOf(rows, limit, toCommentItem, key);
  return mentioned(via, { items: [...pinned.map(toCommentItem), ...page.items], next_cursor: page.next_cursor });
}

/** One page of a thread's replies, oldest first; the caller checked that the parent is a top-level comment of its video. */
export async function readThreadPage(via: ReadVia, viewer: string, parentId: string, limit: number, cursor: Cursor): Promise<Page<CommentItem>> {
  const rows =
    via.dialect === 'postgres'
      ? await postgres.readThreadRows(via.db, viewer, parentId, limit + 1, cursor, (await readSafety(via, viewer)).blocks)
      : cursor
        ? viewerStatements(via.sqlite, viewer).threadNext.all({ viewer, parent: parentId, limit: limit + 1, ...cursor })
        : viewerStatements(via.sqlite, viewer).threadFirst.all({ viewer, parent: parentId, limit: limit + 1 });
  return mentioned(via, pageOf(rows, limit, toCommentItem, key));
}

/** The comments among `ids`, top-level ones and replies alike (a pull's changed comments). */
export async function readCommentsByIds(via: ReadVia, viewer: string, ids: string[]): Promise<CommentItem[]> {
  if (!ids.length) return [];
  const rows =
    via.dialect === 'postgres'
      ? await postgres.readRowsByIds(via.db, viewer, ids, (await readSafety(via, viewer)).blocks)
      : viewerStatements(via.sqlite, viewer).byIds.all({ viewer, ids: JSON.stringify(ids) });
  return withMentions(via, rows.map(toCommentItem));
}

/**
 * Each video's pinned comment, its newest `perVideo` other top-level ones and the viewer's own newest
 * replies (OWN_REPLIES_PER_VIDEO), in the order of `videoIds` (a pull's full lists). A full list
 * replaces the device's, and others' replies load when their thread is opened; the member's own stay
 * shown under their threads, as they were when written (offline too: the list a reconnecting device
 * loads whole would otherwise take them away).
 */
export async function readNewestComments(via: ReadVia, viewer: string, videoIds: string[], perVideo: number): Promise<CommentItem[]> {
  if (!videoIds.length) return [];
  const rows =
    via.dialect === 'postgres'
      ? await postgres.readNewestRows(via.db, viewer, videoIds, perVideo, (await readSafety(via, viewer)).blocks)
      : videoIds.flatMap((id) => {
          const { pinned, rows: top } = sqliteTopRows(via.sqlite, viewer, id, perVideo, null);
          const own = viewerStatements(via.sqlite, viewer).ownReplies.all({ viewer, video: id, limit: OWN_REPLIES_PER_VIDEO });
          return [...pinned, ...[...top, ...own].sort(newestFirst)];
        });
  return withMentions(via, rows.map(toCommentItem));
}
