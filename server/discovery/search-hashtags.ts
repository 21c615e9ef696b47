import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { HashtagResult } from '#sync/rest-api/discovery';
import { isHashtag, normalizeHashtag } from '#sync/protocol/hashtags';
import type { Page } from '../feed/items';
import { encodeHashtagSearchCursor, type HashtagSearchCursor } from './search-cursor';

// GET /api/search?type=hashtags (docs/decisions/0025-discovery.md, "Search"): the tags that start
// with what was typed, in tag order (the exact tag, the shortest, first), one range of the hashtags
// primary key that stops after a page. Unused (videos_count 0) and hidden tags are skipped on it.

export const SEARCH_PAGE = 20;

// Above every character a tag can hold, in UTF-8 byte order (SQLite's BINARY, the column's "C"
// collation on PostgreSQL): tag >= p AND tag < p || END is exactly "starts with p".
const END = '\u{10FFFF}';

/** The tag prefix of a search, as tags are filed (a leading # dropped); null when no tag can start so. */
export function tagPrefixOf(q: string): string | null {
  const prefix = normalizeHashtag(q.replace(/^#/, ''));
  return isHashtag(prefix) || /^\p{N}+$/u.test(prefix) ? prefix : null;
}

type Row = { tag: string; videos_count: number };

/** One page (and one more row) of the shown tags starting with `prefix`, after `cursor`. */
export function hashtagSearchQuery(prefix: string, cursor: HashtagSearchCursor | null): RawBuilder<Row> {
  return sql<Row>`SELECT tag, videos_count FROM hashtags
    WHERE tag >= ${prefix} AND tag < ${prefix + END} AND tag > ${cursor?.tag ?? ''} AND videos_count > 0 AND hidden = 0
    ORDER BY tag LIMIT ${SEARCH_PAGE + 1}`;
}

export async function searchHashtags(db: Kysely<Database>, q: string, cursor: HashtagSearchCursor | null): Promise<Page<HashtagResult>> {
  const prefix = tagPrefixOf(q);
  if (prefix === null) return { items: [], next_cursor: null };
  return hashtagPage((await hashtagSearchQuery(prefix, cursor).execute(db)).rows);
}

/** The API page of a hashtag search from its rows (one more than a page tells a next one exists). */
export function hashtagPage(rows: Array<{ tag: string; videos_count: number }>): Page<HashtagResult> {
  const page = rows.slice(0, SEARCH_PAGE);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({ tag: r.tag, videos_count: Number(r.videos_count) })),
    next_cursor: rows.length > SEARCH_PAGE && last ? encodeHashtagSearchCursor({ tag: last.tag }) : null,
  };
}
