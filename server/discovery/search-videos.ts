import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { Dialect } from '#db/engine';
import type { FeedItem } from '#sync/protocol/messages';
import { FEED_ROW_COLUMNS, toFeedItem, type FeedRow, type Page } from '../feed/items';
import { videoAuthorShown, withViewer } from '../feed/safety';
import { encodeVideoCursor, type VideoCursor } from './search-cursor';
import { SEARCH_PAGE } from './search-hashtags';
import { ftsAny, ftsMatch, searchWords, tsQueryText } from './search-words';

// GET /api/search?type=videos (docs/decisions/0025-discovery.md, "Search"). The words match the
// titles and descriptions of videos (the last as a prefix). Two tiers, each its own statement, read
// in turn until a page is full, as the people tiers are: 0 the videos with a word in the title, 1
// the others; newest first within each, paged by keyset (tier, created_at, id). On PostgreSQL a
// tier is one walk that stops after the page: videos_feed backwards for a common word, the GIN index
// videos_search and a top-N for a rare one, as the planner judges the word. FTS5 has no time order,
// so on SQLite a tier ranks the newest CANDIDATES matches by rowid (insertion order) that FTS5 reads
// backwards and stops. Ready videos of active authors, without a member blocked either way or muted
// by the viewer (server/feed/safety.ts).

/**
 * The most matches a tier's statement reads (50 pages of 20): a common word matches half a million
 * videos. SQLite: a tier ranks its newest CANDIDATES matches; PostgreSQL: a page reads at most the
 * CANDIDATES matches after its cursor, so a tier rarer than 1 in 50 of the matches may end early.
 */
export const CANDIDATES = 1000;

export type VideoRow = FeedRow & { tier: number };
export type VideoTier = VideoCursor['tier'];
/** The tiers in the order a search reads them. */
export const VIDEO_TIERS: readonly VideoTier[] = [0, 1];

const COLUMNS = sql.raw(FEED_ROW_COLUMNS);

// The first page starts above every real row, so both pages are one statement text (one plan).
const TOP = { at: Number.MAX_SAFE_INTEGER, id: '' };

/** Where `tier` starts after `cursor`: at the top, after the cursor's row, or nowhere (a tier already read). */
function tierStart(tier: VideoTier, cursor: VideoCursor | null): { at: number; id: string } | null {
  if (!cursor || cursor.tier < tier) return TOP;
  return cursor.tier === tier ? cursor : null;
}

/** SQLite: the newest CANDIDATES matches of `tier` from FTS5, as `v`. */
function sqliteTierMatches(words: readonly string[], tier: VideoTier) {
  // Tier 0 needs a word in the title column, tier 1 none: FTS5's column filter, exact and cheap.
  const inTitle = `{title} : (${ftsAny(words)})`;
  const match = `(${ftsMatch(words)}) ${tier === 0 ? 'AND' : 'NOT'} ${inTitle}`;
  return sql`(SELECT rowid AS rid FROM videos_fts WHERE videos_fts MATCH ${match} ORDER BY rowid DESC LIMIT ${CANDIDATES}) c
    JOIN videos v ON v.rowid = c.rid`;
}

/**
 * PostgreSQL: the matches of every word after the cursor, newest first, at most CANDIDATES of them,
 * as `v` with `in_title` (a word in a title lexeme, weight A). The planner estimates the plain match
 * well (tsvector statistics have no weights, and a negation would be guessed), so it walks
 * videos_feed for a common word and reads the GIN index for a rare one; the walk is pulled only
 * until the tier's page is full.
 */
function postgresMatches(words: readonly string[], start: { at: number; id: string }) {
  return sql`(SELECT w.*, w.search_vector @@ to_tsquery('simple', vidi_fold(${tsQueryText(words, 'A')})) AS in_title FROM videos w
      WHERE w.search_vector @@ to_tsquery('simple', vidi_fold(${tsQueryText(words)})) AND w.media_status = 'ready'
        AND (w.created_at, w.id) < (${start.at}, ${start.id})
      ORDER BY w.created_at DESC, w.id DESC LIMIT ${CANDIDATES}) v`;
}

/**
 * One page (`limit` rows: a page and one more) of `tier`'s videos matching `words` (at least one)
 * after `cursor`, or null when the cursor is past the tier.
 */
export function videoSearchQuery(
  dialect: Dialect,
  viewer: string,
  words: readonly string[],
  tier: VideoTier,
  cursor: VideoCursor | null,
  limit: number,
  filtered: boolean,
): RawBuilder<VideoRow> | null {
  const start = tierStart(tier, cursor);
  if (!start) return null;
  const shown = filtered ? sql` AND ${withViewer(videoAuthorShown('v.user_id'), viewer)}` : sql``;
  const page = sql`v.media_status = 'ready' AND (v.created_at, v.id) < (${start.at}, ${start.id})`;
  const joins = sql`JOIN profiles p ON p.id = v.user_id
    LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = ${viewer}
    WHERE p.is_active = 1 AND p.account_status = 'active'${shown}`;
  const order = sql`ORDER BY v.created_at DESC, v.id DESC LIMIT ${limit}`;
  if (dialect === 'sqlite')
    // The candidates are ranked before the joins, so those stop after the page. `LIMIT -1` (no
    // limit) keeps SQLite from flattening the subquery into the join, which would join all 1,000
    // candidates to profiles and likes before sorting them (2.3 -> 0.9 ms for "love" at a million videos).
    return sql<VideoRow>`SELECT ${COLUMNS}, ${tier} AS tier
      FROM (SELECT v.* FROM ${sqliteTierMatches(words, tier)} WHERE ${page} ORDER BY v.created_at DESC, v.id DESC LIMIT -1) v
      ${joins} ${order}`;
  // The matches are pulled in the page's order, the tier kept, and joined as they come.
  return sql<VideoRow>`SELECT ${COLUMNS}, ${tier} AS tier FROM ${postgresMatches(words, start)} ${joins}
    AND ${tier === 0 ? sql`v.in_title` : sql`NOT v.in_title`} ${order}`;
}

/**
 * Runs `read` with statements planned for their own words. db/postgres.ts prepares every text, and
 * after a few runs PostgreSQL may keep one generic plan for any words; but the right plan depends on
 * the word: walk videos_feed from the newest and stop after the page for a common word, or read the
 * GIN index for a rare one (a walk would then read every video). So on PostgreSQL the statements run
 * in one transaction that asks for a custom plan each time.
 */
export async function plannedForItsWords<T>(db: Kysely<Database>, dialect: Dialect, read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (dialect === 'sqlite') return read(db);
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL plan_cache_mode = force_custom_plan`.execute(trx);
    return read(trx);
  });
}

/** The tiers in turn, each read by `run` while the page (and one more row) is short. */
export async function readVideoTiers(
  dialect: Dialect,
  viewer: string,
  words: readonly string[],
  cursor: VideoCursor | null,
  filtered: boolean,
  run: (query: RawBuilder<VideoRow>) => Promise<VideoRow[]>,
): Promise<VideoRow[]> {
  const rows: VideoRow[] = [];
  for (const tier of VIDEO_TIERS) {
    const query = rows.length <= SEARCH_PAGE ? videoSearchQuery(dialect, viewer, words, tier, cursor, SEARCH_PAGE + 1 - rows.length, filtered) : null;
    if (query) rows.push(...(await run(query)));
  }
  return rows;
}

export async function searchVideos(
  db: Kysely<Database>,
  dialect: Dialect,
  viewer: string,
  q: string,
  cursor: VideoCursor | null,
  filtered: boolean,
): Promise<Page<FeedItem>> {
  const words = searchWords(q);
  if (words.length === 0) return { items: [], next_cursor: null };
  const rows = await plannedForItsWords(db, dialect, (tx) =>
    readVideoTiers(dialect, viewer, words, cursor, filtered, async (query) => (await query.execute(tx)).rows),
  );
  return videoPage(rows);
}

/** The API page of a video search from its rows (one more than a page tells a next one exists). */
export function videoPage(rows: VideoRow[]): Page<FeedItem> {
  const page = rows.slice(0, SEARCH_PAGE);
  const last = page.at(-1);
  return {
    items: page.map(toFeedItem),
    next_cursor:
      rows.length > SEARCH_PAGE && last
        ? encodeVideoCursor({ tier: Number(last.tier) as VideoCursor['tier'], at: Number(last.created_at), id: last.id })
        : null,
  };
}
