import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { Dialect } from '#db/engine';
import type { FeedItem } from '#sync/protocol/messages';
import { FEED_ROW_COLUMNS, toFeedItem, type FeedRow, type Page } from '../feed/items';
import { videoAuthorShown, withViewer } from '../feed/safety';
import { encodeVideoCursor, type VideoCursor } from './search-cursor';
import { SEARCH_PAGE } from './search-hashtags';
import { ftsMatch, searchWords, tsQueryText } from './search-words';

// GET /api/search?type=videos (docs/decisions/0025-discovery.md, "Search"). The words match the
// titles and descriptions of videos (the last as a prefix). The candidates are the newest
// CANDIDATES matches: a common word matches a large part of a million videos, and ranking every
// match would cost in proportion; so FTS5 reads its match list backwards by rowid (insertion order)
// and stops, and PostgreSQL reads the newest matches by videos_feed or the GIN index, as its planner
// judges the word. Those are ranked (a word in the title first, then newest first) and paged
// by keyset within them: ready videos of active authors, without a member blocked either way or
// muted by the viewer (server/feed/safety.ts).

export const CANDIDATES = 1000;

export type VideoRow = FeedRow & { tier: number };

const COLUMNS = sql.raw(FEED_ROW_COLUMNS);

// The first page starts above every real row, so both pages are one statement text (one plan).
const TOP: VideoCursor = { tier: 0, at: Number.MAX_SAFE_INTEGER, id: '' };

function after(tier: RawBuilder<unknown>, cursor: VideoCursor | null) {
  const c = cursor ?? TOP;
  return sql`(${tier} > ${c.tier} OR (${tier} = ${c.tier} AND (v.created_at, v.id) < (${c.at}, ${c.id})))`;
}

/**
 * The candidates, ranked: on SQLite, tier 0 when the title alone scores (bm25 with the description
 * weighed 0); on PostgreSQL when a word matches a title lexeme (weight A).
 */
function candidates(dialect: Dialect, words: readonly string[]) {
  if (dialect === 'sqlite')
    return {
      from: sql`(SELECT rowid AS rid, CASE WHEN bm25(videos_fts, 1.0, 0.0) < 0 THEN 0 ELSE 1 END AS tier
        FROM videos_fts WHERE videos_fts MATCH ${ftsMatch(words)} ORDER BY rowid DESC LIMIT ${CANDIDATES}) c
        JOIN videos v ON v.rowid = c.rid`,
      tier: sql`c.tier`,
    };
  return {
    // The candidates are the rows themselves: their walk has read them already, so the page needs
    // no second read of videos (nor leaves the planner a choice of how to join it back).
    from: sql`(SELECT w.* FROM videos w
        WHERE w.search_vector @@ to_tsquery('simple', vidi_fold(${tsQueryText(words)})) AND w.media_status = 'ready'
        ORDER BY w.created_at DESC, w.id DESC LIMIT ${CANDIDATES}) v`,
    // On the candidates only, in the outer query: never on every match.
    tier: sql`CASE WHEN v.search_vector @@ to_tsquery('simple', vidi_fold(${tsQueryText(words, 'A')})) THEN 0 ELSE 1 END`,
  };
}

/** One page (and one more row) of the videos matching `words` (at least one) after `cursor`. */
export function videoSearchQuery(
  dialect: Dialect,
  viewer: string,
  words: readonly string[],
  cursor: VideoCursor | null,
  filtered: boolean,
): RawBuilder<VideoRow> {
  const { from, tier } = candidates(dialect, words);
  const shown = filtered ? sql` AND ${withViewer(videoAuthorShown('v.user_id'), viewer)}` : sql``;
  // The tier and the order come before the joins: the candidates are sorted on their own columns,
  // and the join to profiles and likes then stops after the page instead of joining every candidate.
  return sql<VideoRow>`SELECT ${COLUMNS}, v.tier FROM (SELECT v.*, ${tier} AS tier FROM ${from}
      WHERE v.media_status = 'ready' AND ${after(tier, cursor)}
      ORDER BY tier, v.created_at DESC, v.id DESC) v
    JOIN profiles p ON p.id = v.user_id
    LEFT JOIN likes l ON l.video_id = v.id AND l.user_id = ${viewer}
    WHERE p.is_active = 1 AND p.account_status = 'active'${shown}
    ORDER BY v.tier, v.created_at DESC, v.id DESC LIMIT ${SEARCH_PAGE + 1}`;
}

/**
 * Runs a search statement planned for its own words. db/postgres.ts prepares every text, and after
 * a few runs PostgreSQL may keep one generic plan for any words; but the right plan depends on the
 * word: walk videos_feed from the newest and stop after CANDIDATES matches for a common word, or
 * read the GIN index for a rare one (a walk would then read every video). So on PostgreSQL the
 * statement runs in a transaction that asks for a custom plan each time.
 */
export async function plannedForItsWords<R>(db: Kysely<Database>, dialect: Dialect, query: RawBuilder<R>): Promise<R[]> {
  if (dialect === 'sqlite') return (await query.execute(db)).rows;
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL plan_cache_mode = force_custom_plan`.execute(trx);
    return (await query.execute(trx)).rows;
  });
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
  return videoPage(await plannedForItsWords(db, dialect, videoSearchQuery(dialect, viewer, words, cursor, filtered)));
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
