import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { Dialect } from '#db/engine';
import type { FeedItem } from '#sync/protocol/messages';
import { FEED_ROW_COLUMNS, pageOf, toFeedItem, type Cursor, type FeedRow, type Page } from '../feed/items';
import { videoAuthorShown, withViewer } from '../feed/safety';

// A creator's videos and the Following feed: ready videos only, in the feed's item shape, newest
// first, keyset on (created_at, id), both read from videos_user_ready (db/migrations/0015_people_reads.ts).
// Why the Following feed is read at request time: docs/decisions/0022-following-feed-on-read.md.

export const VIDEOS_PAGE = 20;

// The first page starts above every real row, so both pages are one statement text (one plan).
const TOP: NonNullable<Cursor> = { at: Number.MAX_SAFE_INTEGER, id: '' };

const COLUMNS = sql.raw(FEED_ROW_COLUMNS);

const NEWEST_FIRST = (a: FeedRow, b: FeedRow) => b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** A creator page's videos (a page and one more): one range of videos_user_ready, read backwards. */
export function creatorVideosQuery(viewer: string, owner: string, cursor: Cursor): RawBuilder<FeedRow> {
  const after = cursor ?? TOP;
  return sql<FeedRow>`SELECT ${COLUMNS} FROM videos v
    LEFT JOIN profiles p ON p.id = v.user_id
    LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = ${viewer}
    WHERE v.user_id = ${owner} AND v.media_status = 'ready' AND (v.created_at, v.id) < (${after.at}, ${after.id})
    ORDER BY v.created_at DESC, v.id DESC LIMIT ${VIDEOS_PAGE + 1}`;
}

export async function readCreatorVideos(db: Kysely<Database>, viewer: string, owner: string, cursor: Cursor): Promise<Page<FeedItem>> {
  const { rows } = await creatorVideosQuery(viewer, owner, cursor).execute(db);
  return pageOf(rows, VIDEOS_PAGE, toFeedItem, (r) => [Number(r.created_at), r.id]);
}

/**
 * The (created_at, id) of the Following feed's next `limit` videos: the top `limit` of each
 * followed creator below the cursor (an index walk per creator), then the top `limit` of those.
 * PostgreSQL says it with LATERAL; SQLite, which has none, with a correlated IN list per creator,
 * which it runs as the same walk of videos_user_ready per followee.
 */
export function followingPageIdsQuery(dialect: Dialect, viewer: string, limit: number, cursor: Cursor, filtered: boolean): RawBuilder<{ id: string }> {
  const after = cursor ?? TOP;
  const perCreator = (alias: string, owner: RawBuilder<unknown>) => sql`FROM videos ${sql.raw(alias)}
    WHERE ${sql.raw(alias)}.user_id = ${owner} AND ${sql.raw(alias)}.media_status = 'ready'
      AND (${sql.raw(alias)}.created_at, ${sql.raw(alias)}.id) < (${after.at}, ${after.id})
    ORDER BY ${sql.raw(alias)}.created_at DESC, ${sql.raw(alias)}.id DESC LIMIT ${limit}`;
  const followee = sql`f.followee_id`;
  // A viewer with blocks or mutes (server/feed/safety.ts) skips those followees before walking their videos.
  const shown = filtered ? sql` AND ${withViewer(videoAuthorShown('f.followee_id'), viewer)}` : sql``;
  return dialect === 'postgres'
    ? sql<{ id: string }>`SELECT w.id FROM follows f
        CROSS JOIN LATERAL (SELECT w.created_at, w.id ${perCreator('w', followee)}) w
        WHERE f.follower_id = ${viewer}${shown} ORDER BY w.created_at DESC, w.id DESC LIMIT ${limit}`
    : sql<{ id: string }>`SELECT t.id FROM follows f
        JOIN videos t ON t.rowid IN (SELECT w.rowid ${perCreator('w', followee)})
        WHERE f.follower_id = ${viewer}${shown} ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`;
}

/**
 * The rows of one page of the Following feed (one more than a page, unordered): the page's ids
 * first (over the index alone), then the rows of those ids only, with their author and the
 * viewer's like by primary key.
 */
export function followingFeedQuery(dialect: Dialect, viewer: string, cursor: Cursor, filtered: boolean): RawBuilder<FeedRow> {
  const ids = followingPageIdsQuery(dialect, viewer, VIDEOS_PAGE + 1, cursor, filtered);
  return sql<FeedRow>`SELECT ${COLUMNS} FROM (${ids}) page
    JOIN videos v ON v.id = page.id
    LEFT JOIN profiles p ON p.id = v.user_id
    LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = ${viewer}`;
}

export async function readFollowingFeed(db: Kysely<Database>, dialect: Dialect, viewer: string, cursor: Cursor, filtered: boolean): Promise<Page<FeedItem>> {
  const { rows } = await followingFeedQuery(dialect, viewer, cursor, filtered).execute(db);
  // At most 21 rows: put in order here rather than ask the database for a second sort.
  return pageOf(rows.sort(NEWEST_FIRST), VIDEOS_PAGE, toFeedItem, (r) => [Number(r.created_at), r.id]);
}
