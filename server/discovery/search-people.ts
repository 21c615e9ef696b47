import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { Dialect } from '#db/engine';
import type { PersonResult } from '#sync/rest-api/discovery';
import { normalizeHandle } from '#sync/protocol/handles';
import type { Page } from '../feed/items';
import { videoAuthorShown, withViewer } from '../feed/safety';
import { encodePeopleCursor, INT_MAX, type PeopleCursor } from './search-cursor';
import { SEARCH_PAGE } from './search-hashtags';
import { matchesNames, searchWords } from './search-words';
import { plannedForItsWords } from './search-videos';

// GET /api/search?type=people (docs/decisions/0025-discovery.md, "Search"), in three tiers, each
// its own statement on its own index, read in turn until a page is full: 0 the exact handle
// (profiles_handle), 1 the handles that start with what was typed (a range of profiles_handle, in
// handle order), 2 the members whose name has a word starting with each word typed (people_fts on
// SQLite, profiles_name_words on PostgreSQL), most followed first among the newest
// NAME_CANDIDATES matches. Only active members, never one blocked either way or muted by the viewer.

export const NAME_CANDIDATES = 1000;

// Handles are a-z 0-9 _ . (sync/protocol/handles.ts): '~' sorts above all of them in byte order.
const HANDLE_END = '~';
const HANDLE_PREFIX = /^[a-z0-9_.]{1,30}$/;

type Row = { id: string; handle: string; name: string; followers_count: number; following: number };

// A search leaves out those muted as well as those blocked: a mute hides the member's videos
// everywhere, and search is where they would be met again.
const SHOWN = (viewer: string, filtered: boolean) => (filtered ? sql` AND ${withViewer(videoAuthorShown('p.id'), viewer)}` : sql``);

const select = (viewer: string, from = sql`profiles p`) => sql`SELECT p.id, p.handle, p.name, p.followers_count,
    CASE WHEN EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${viewer} AND f.followee_id = p.id) THEN 1 ELSE 0 END AS following
  FROM ${from}`;

const ACTIVE = sql.raw(`p.is_active = 1 AND p.account_status = 'active'`);

/** The member whose handle is `handle`. */
export function exactHandleQuery(viewer: string, handle: string, filtered: boolean): RawBuilder<Row> {
  return sql<Row>`${select(viewer)} WHERE p.handle = ${handle} AND ${ACTIVE}${SHOWN(viewer, filtered)}`;
}

/** Handles that start with `prefix` (not `prefix` itself), after `afterHandle`, in handle order. */
export function handlePrefixQuery(viewer: string, prefix: string, afterHandle: string, limit: number, filtered: boolean): RawBuilder<Row> {
  return sql<Row>`${select(viewer)} WHERE p.handle > ${afterHandle > prefix ? afterHandle : prefix} AND p.handle < ${prefix + HANDLE_END}
    AND ${ACTIVE}${SHOWN(viewer, filtered)} ORDER BY p.handle LIMIT ${limit}`;
}

/**
 * The profiles whose name has a word starting with each word typed (a prefix each): the newest
 * NAME_CANDIDATES, as `p` with a condition to AND. On PostgreSQL the candidates are the rows
 * themselves (a derived table), so that the planner cannot trade the match for a walk of
 * profiles_followers in the page's order, which would read every member for a rare name.
 */
function nameMatches(dialect: Dialect, words: readonly string[]) {
  if (dialect === 'sqlite') {
    const match = words.map((w) => `"${w}"*`).join(' ');
    return {
      from: sql`profiles p`,
      where: sql`p.rowid IN (SELECT rowid FROM people_fts WHERE people_fts MATCH ${match} ORDER BY rowid DESC LIMIT ${NAME_CANDIDATES})`,
    };
  }
  // Every word a word start of the folded name, from the GIN index of its words (profiles_name_words).
  const starts = words.map((w) => `'${w}':*`).join(' & ');
  return {
    from: sql`(SELECT n.id, n.handle, n.name, n.followers_count, n.is_active, n.account_status FROM profiles n
      WHERE to_tsvector('simple', vidi_fold(n.name)) @@ to_tsquery('simple', vidi_fold(${starts})) ORDER BY n.created_at DESC, n.id DESC LIMIT ${NAME_CANDIDATES}) p`,
    where: sql`TRUE`,
  };
}

/** Members whose name matches, most followed first, then by handle; those a handle tier showed are left out. */
export function nameQuery(
  dialect: Dialect,
  viewer: string,
  words: readonly string[],
  prefix: string | null,
  after: PeopleCursor | null,
  limit: number,
  filtered: boolean,
): RawBuilder<Row> {
  const from = after?.tier === 2 ? after : { followers: INT_MAX, handle: '' };
  const notShownAbove = prefix ? sql` AND NOT (p.handle >= ${prefix} AND p.handle < ${prefix + HANDLE_END})` : sql``;
  const { from: candidates, where } = nameMatches(dialect, words);
  return sql<Row>`${select(viewer, candidates)} WHERE ${where} AND ${ACTIVE}${notShownAbove}${SHOWN(viewer, filtered)}
    AND (p.followers_count < ${from.followers} OR (p.followers_count = ${from.followers} AND p.handle > ${from.handle}))
    ORDER BY p.followers_count DESC, p.handle LIMIT ${limit}`;
}

export type Tiered = Row & { tier: PeopleCursor['tier'] };

/** What was typed as a handle's start (lower case, @ dropped), or null when it cannot begin a handle. */
export function typedHandlePrefix(q: string): string | null {
  const typed = normalizeHandle(q);
  return HANDLE_PREFIX.test(typed) ? typed : null;
}

async function tiersFrom(db: Kysely<Database>, dialect: Dialect, viewer: string, q: string, cursor: PeopleCursor | null, filtered: boolean): Promise<Tiered[]> {
  const prefix = typedHandlePrefix(q);
  const want = SEARCH_PAGE + 1;
  const out: Tiered[] = [];
  const tier = cursor?.tier ?? -1;
  const add = (rows: Row[], t: Tiered['tier']) => out.push(...rows.map((r) => ({ ...r, tier: t })));
  if (prefix && tier < 0) add((await exactHandleQuery(viewer, prefix, filtered).execute(db)).rows, 0);
  if (prefix && tier < 2) add((await handlePrefixQuery(viewer, prefix, tier === 1 ? cursor!.handle : '', want - out.length, filtered).execute(db)).rows, 1);
  const words = searchWords(q);
  if (out.length < want && matchesNames(words))
    add(
      await plannedForItsWords(
        db,
        dialect,
        async (tx) => (await nameQuery(dialect, viewer, words, prefix, cursor, want - out.length, filtered).execute(tx)).rows,
      ),
      2,
    );
  return out;
}

export async function searchPeople(
  db: Kysely<Database>,
  dialect: Dialect,
  viewer: string,
  q: string,
  cursor: PeopleCursor | null,
  filtered: boolean,
): Promise<Page<PersonResult>> {
  return peoplePage(await tiersFrom(db, dialect, viewer, q, cursor, filtered));
}

/** The API page of a people search from its tiers' rows (one more than a page tells a next one exists). */
export function peoplePage(rows: Tiered[]): Page<PersonResult> {
  const page = rows.slice(0, SEARCH_PAGE);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id,
      handle: r.handle,
      name: r.name,
      followers_count: Number(r.followers_count),
      viewer: { following: Number(r.following) === 1 },
    })),
    next_cursor:
      rows.length > SEARCH_PAGE && last
        ? encodePeopleCursor({ tier: last.tier, followers: last.tier === 2 ? Number(last.followers_count) : 0, handle: last.handle })
        : null,
  };
}
