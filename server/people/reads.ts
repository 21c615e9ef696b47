import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type { CreatorProfile, PersonItem } from '#sync/rest-api/people';
import { pageOf, type Cursor, type Page } from '../feed/items';
import { notBlocked, withViewer } from '../feed/safety';

// The people reads (docs/data-model.md, "People"): one statement text for both engines, each read
// by an index (tests/api/people-reads.test.ts and tests/postgres/plans-people.test.ts check which).

/** Pages of people are as long as feed pages. */
export const PEOPLE_PAGE = 20;

// Suspended, deleted or unpaid accounts have no page and are in nobody's lists.
const ACTIVE = sql.raw(`p.is_active = 1 AND p.account_status = 'active'`);

// For a viewer with blocks (`filtered`, server/feed/safety.ts) the lists leave out members blocked
// either way; for everyone else the statement stays as it was.
const shown = (viewer: string, filtered: boolean) => (filtered ? sql` AND ${withViewer(notBlocked('p.id'), viewer)}` : sql``);

interface ProfileRow {
  id: string;
  handle: string;
  name: string;
  created_at: number;
  followers_count: number;
  following_count: number;
  videos_count: number;
  following: number;
  followed_by: number;
  blocked: number;
  blocked_by: number;
  muted: number;
}

/**
 * The member with this (normalized) handle, or null when none is active. videos_count is an
 * index-only count over videos_user_ready (db/migrations/0015_people_reads.ts): no counter to keep
 * true through processing, failure and deletion, and a creator's videos are few enough to count.
 */
export function creatorQuery(viewer: string, handle: string): RawBuilder<ProfileRow> {
  return sql<ProfileRow>`SELECT p.id, p.handle, p.name, p.created_at, p.followers_count, p.following_count,
      (SELECT count(*) FROM videos v WHERE v.user_id = p.id AND v.media_status = 'ready') AS videos_count,
      CASE WHEN EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${viewer} AND f.followee_id = p.id) THEN 1 ELSE 0 END AS following,
      CASE WHEN EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = p.id AND f.followee_id = ${viewer}) THEN 1 ELSE 0 END AS followed_by,
      CASE WHEN EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${viewer} AND b.blocked_id = p.id) THEN 1 ELSE 0 END AS blocked,
      CASE WHEN EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = p.id AND b.blocked_id = ${viewer}) THEN 1 ELSE 0 END AS blocked_by,
      CASE WHEN EXISTS (SELECT 1 FROM mutes m WHERE m.muter_id = ${viewer} AND m.muted_id = p.id) THEN 1 ELSE 0 END AS muted
    FROM profiles p WHERE p.handle = ${handle} AND ${ACTIVE}`;
}

/** The creator page, or null when there is none for the viewer: no such active member, or a block either way. */
export async function readCreator(db: Kysely<Database>, viewer: string, handle: string): Promise<CreatorProfile | null> {
  const { rows } = await creatorQuery(viewer, handle).execute(db);
  const r = rows[0];
  if (!r || Number(r.blocked) === 1 || Number(r.blocked_by) === 1) return null;
  return {
    id: r.id,
    handle: r.handle,
    name: r.name,
    created_at: new Date(Number(r.created_at)).toISOString(),
    followers_count: Number(r.followers_count),
    following_count: Number(r.following_count),
    videos_count: Number(r.videos_count),
    viewer: { following: Number(r.following) === 1, followed_by: Number(r.followed_by) === 1, blocked: Number(r.blocked) === 1, muted: Number(r.muted) === 1 },
  };
}

/**
 * The id of the active member with this (normalized) handle, the lists' owner, by profiles_handle;
 * null for a member blocked either way, whose pages answer 404 as their creator page does.
 */
export async function activeMemberId(db: Kysely<Database>, viewer: string, handle: string): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`SELECT p.id FROM profiles p
    WHERE p.handle = ${handle} AND ${ACTIVE} AND ${withViewer(notBlocked('p.id'), viewer)}`.execute(db);
  return rows[0]?.id ?? null;
}

interface PersonRow {
  id: string;
  handle: string;
  name: string;
  following: number;
  at: number;
}

const toPerson = (r: PersonRow): PersonItem => ({ id: r.id, handle: r.handle, name: r.name, viewer: { following: Number(r.following) === 1 } });

const viewerFollows = (viewer: string) =>
  sql`CASE WHEN EXISTS (SELECT 1 FROM follows m WHERE m.follower_id = ${viewer} AND m.followee_id = p.id) THEN 1 ELSE 0 END AS following`;

// The first page starts above every real row, so both pages are one statement text (one plan).
const TOP: NonNullable<Cursor> = { at: Number.MAX_SAFE_INTEGER, id: '' };

/**
 * Who follows `owner` (list 'followers', by follows_followee) or whom `owner` follows ('following',
 * by follows_follower), newest follow first, keyset on (follows.created_at, the other member's id).
 */
export function peoplePageQuery(viewer: string, owner: string, list: 'followers' | 'following', cursor: Cursor, filtered: boolean): RawBuilder<PersonRow> {
  const after = cursor ?? TOP;
  // Only the column names differ between the lists: both are fixed words, never input.
  const [mine, other] = list === 'followers' ? ['followee_id', 'follower_id'] : ['follower_id', 'followee_id'];
  return sql<PersonRow>`SELECT p.id, p.handle, p.name, f.created_at AS at, ${viewerFollows(viewer)}
    FROM follows f JOIN profiles p ON p.id = f.${sql.raw(other)}
    WHERE f.${sql.raw(mine)} = ${owner} AND (f.created_at, f.${sql.raw(other)}) < (${after.at}, ${after.id}) AND ${ACTIVE}${shown(viewer, filtered)}
    ORDER BY f.created_at DESC, f.${sql.raw(other)} DESC LIMIT ${PEOPLE_PAGE + 1}`;
}

export async function readPeoplePage(
  db: Kysely<Database>,
  viewer: string,
  owner: string,
  list: 'followers' | 'following',
  cursor: Cursor,
  filtered: boolean,
): Promise<Page<PersonItem>> {
  const { rows } = await peoplePageQuery(viewer, owner, list, cursor, filtered).execute(db);
  return pageOf(rows, PEOPLE_PAGE, toPerson, (r) => [Number(r.at), r.id]);
}

/**
 * "Who to follow": the most-followed active members the viewer does not follow yet, walking
 * profiles_followers from its top (the members skipped are at most those the viewer follows).
 */
export function suggestedQuery(viewer: string, filtered: boolean): RawBuilder<PersonRow> {
  return sql<PersonRow>`SELECT p.id, p.handle, p.name, 0 AS following, 0 AS at FROM profiles p
    WHERE p.id <> ${viewer} AND ${ACTIVE}
      AND NOT EXISTS (SELECT 1 FROM follows m WHERE m.follower_id = ${viewer} AND m.followee_id = p.id)${shown(viewer, filtered)}
    ORDER BY p.followers_count DESC, p.id DESC LIMIT ${PEOPLE_PAGE}`;
}

export async function readSuggested(db: Kysely<Database>, viewer: string, filtered: boolean): Promise<PersonItem[]> {
  const { rows } = await suggestedQuery(viewer, filtered).execute(db);
  return rows.map(toPerson);
}
