import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { HashtagSort } from '#sync/rest-api/discovery';
import type { FeedItem } from '#sync/protocol/messages';
import { ApiError } from '../http/errors';
import { FEED_ROW_COLUMNS, toFeedItem, type FeedRow, type Page } from '../feed/items';
import { videoAuthorShown, withViewer } from '../feed/safety';

// A hashtag page (docs/data-model.md, "Discovery"; docs/decisions/0025-discovery.md, "Hashtags"):
// the tag's videos, newest first on the index video_hashtags_recent (db/migrations/0019_discovery.ts)
// or most liked first on the table video_hashtags_top, keyed by that order (db/migrations/0021_hashtags_top.ts),
// each one backward walk of its index range that stops after a
// page, whatever the tag's size. Only ready videos are filed; the walk still checks the video, its
// author (active) and, for a viewer with blocks or mutes, that author (server/feed/safety.ts).

export const HASHTAG_PAGE = 20;

/** Where a page starts: below this row of the order (null: the first page). */
export type HashtagCursor = { sort: 'recent'; at: number; id: string } | { sort: 'top'; likes: number; at: number; id: string };

// likes_count is an integer column: PostgreSQL types the parameter compared with it as one.
const INT_MAX = 2_147_483_647;
const ID = '[A-Za-z0-9_-]{1,64}';
const SHAPES = { recent: new RegExp(`^h1:r:(\\d{1,16}):(${ID})$`), top: new RegExp(`^h1:t:(\\d{1,10}):(\\d{1,16}):(${ID})$`) };

const invalidCursor = () => new ApiError(400, 'invalid_cursor', 'The cursor is not one this API returned for this order.');

export function encodeHashtagCursor(c: NonNullable<HashtagCursor>): string {
  const text = c.sort === 'recent' ? `h1:r:${c.at}:${c.id}` : `h1:t:${c.likes}:${c.at}:${c.id}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** A page's `cursor=` for `sort` (null: the first page); 400 invalid_cursor for another read's, or another order's. */
export function parseHashtagCursor(sort: HashtagSort, raw: string | undefined): HashtagCursor | null {
  if (raw === undefined) return null;
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) throw invalidCursor();
  const m = SHAPES[sort].exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m) throw invalidCursor();
  if (sort === 'recent') return { sort, at: Number(m[1]), id: m[2]! };
  const likes = Number(m[1]);
  if (likes > INT_MAX) throw invalidCursor();
  return { sort, likes, at: Number(m[2]), id: m[3]! };
}

type TagRow = FeedRow & { rank_likes: number };

const COLUMNS = sql.raw(FEED_ROW_COLUMNS);

/** The keyset condition and order of `sort`: the first page starts above every real row, so both pages are one text. */
function orderOf(sort: HashtagSort, cursor: HashtagCursor | null) {
  if (sort === 'top') {
    const after = cursor?.sort === 'top' ? cursor : { likes: INT_MAX, at: Number.MAX_SAFE_INTEGER, id: '' };
    return {
      below: sql`(h.likes_count, h.created_at, h.video_id) < (${after.likes}, ${after.at}, ${after.id})`,
      order: sql`h.likes_count DESC, h.created_at DESC, h.video_id DESC`,
      from: sql`video_hashtags_top h`,
      rank: sql`h.likes_count`,
    };
  }
  const after = cursor?.sort === 'recent' ? cursor : { at: Number.MAX_SAFE_INTEGER, id: '' };
  return {
    below: sql`(h.created_at, h.video_id) < (${after.at}, ${after.id})`,
    order: sql`h.created_at DESC, h.video_id DESC`,
    from: sql`video_hashtags h`,
    rank: sql`v.likes_count`,
  };
}

/** One page (and one more row) of tag `tag` in `sort` order; `filtered` for a viewer with blocks or mutes. */
export function hashtagVideosQuery(viewer: string, tag: string, sort: HashtagSort, cursor: HashtagCursor | null, filtered: boolean): RawBuilder<TagRow> {
  const { below, order, from, rank } = orderOf(sort, cursor);
  const shown = filtered ? sql` AND ${withViewer(videoAuthorShown('v.user_id'), viewer)}` : sql``;
  return sql<TagRow>`SELECT ${COLUMNS}, ${rank} AS rank_likes FROM ${from}
    JOIN videos v ON v.id = h.video_id
    JOIN profiles p ON p.id = v.user_id
    LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = ${viewer}
    WHERE h.tag = ${tag} AND ${below} AND v.media_status = 'ready' AND p.is_active = 1 AND p.account_status = 'active'${shown}
    ORDER BY ${order} LIMIT ${HASHTAG_PAGE + 1}`;
}

export async function readHashtagVideos(
  db: Kysely<Database>,
  viewer: string,
  tag: string,
  sort: HashtagSort,
  cursor: HashtagCursor | null,
  filtered: boolean,
): Promise<Page<FeedItem>> {
  const { rows } = await hashtagVideosQuery(viewer, tag, sort, cursor, filtered).execute(db);
  const page = rows.slice(0, HASHTAG_PAGE);
  const last = page.at(-1);
  const next: HashtagCursor | null =
    rows.length > HASHTAG_PAGE && last
      ? sort === 'top'
        ? { sort, likes: Number(last.rank_likes), at: Number(last.created_at), id: last.id }
        : { sort, at: Number(last.created_at), id: last.id }
      : null;
  return { items: page.map(toFeedItem), next_cursor: next && encodeHashtagCursor(next) };
}

/** The tag's row: its count and whether an admin hid it (undefined: nobody used it yet). */
export function readHashtag(db: Kysely<Database>, tag: string) {
  return db.selectFrom('hashtags').select(['tag', 'videos_count', 'hidden']).where('tag', '=', tag).executeTakeFirst();
}
