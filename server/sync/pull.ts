import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AppDeps, AuthUser } from '../context';
import { ApiError } from '../http/errors';
import { readLeaderboards } from '../rewards/leaderboards';
import { COMMENTS_PER_VIDEO, FEED_WINDOW, type FeedItem, type PullResponse } from '#sync/protocol/messages';
import { parseCursor as parseFeedCursor } from '../feed/cursor';
import { readFeedPage, readVia } from '../videos/feed-rows';
import type { Cursor } from '../feed/items';
import { readCommentsByIds, readNewestComments } from '../videos/comment-rows';
import { snapshotRead } from './read-transaction';
import { readChangeSets, readVideoChanges, type ChangeSets } from './pull-changes';
import { readOwnChanges, readOwnSnapshot } from './own-rows';

export interface PullInput {
  client_id?: string | undefined;
  cursor: string | null;
  open_videos: string[];
  load_comments: string[];
  window_page?: number | undefined;
  window_after?: string | undefined;
}

/**
 * Answers a pull in one read transaction, so the returned cursor (the newest change-log seq) and the
 * rows agree: every change at or below the cursor is in the rows, nothing above it is.
 */
export async function processPull(deps: AppDeps, user: AuthUser, req: PullInput): Promise<PullResponse> {
  const since = parseCursor(req.cursor);
  const open = [...new Set(req.open_videos)];
  const load = new Set(req.load_comments.filter((id) => open.includes(id)));
  // One this API never made: 400 invalid_cursor, as for the pull's cursor (the client starts over).
  const after = parseFeedCursor(req.window_after);

  return snapshotRead(deps.db, deps.engine).execute(async (trx) => {
    const head = Number(
      (
        await trx
          .selectFrom('change_log')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirst()
      )?.seq ?? 0,
    );
    // A cursor from the future (another database, a restore) or too far behind: start over. So
    // too after a block or a mute of the member's (Changes.resync): the snapshot is read with it applied.
    const changed = since === null || since > head ? null : await readChangeSets(trx, since, open, load);
    const sets = changed?.resyncs.has(user.id) ? null : changed;
    const base = { cursor: String(head), last_mutation_id: await readLastMutationId(trx, user.id, req.client_id) };
    if (!sets) return { ...base, ...(await readSnapshot(deps, trx, user.id, open, req.window_page)) };
    const rows = await readChangedRows(deps, trx, user.id, sets, load);
    return { ...base, ...rows, ...(after ? await readWindowPage(deps, trx, user.id, rows.videos, req.window_page ?? FEED_WINDOW, after) : {}) };
  });
}

function parseCursor(cursor: string | null): number | null {
  if (cursor === null) return null;
  if (!/^\d{1,15}$/.test(cursor)) throw new ApiError(400, 'invalid_cursor', 'The cursor must be the decimal string a previous pull returned.');
  return Number(cursor);
}

async function readLastMutationId(trx: Transaction<Database>, userId: string, clientId: string | undefined): Promise<number> {
  if (!clientId) return 0;
  const row = await trx
    .selectFrom('sync_clients')
    .select('last_mutation_id')
    .where('client_id', '=', clientId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.last_mutation_id ?? 0;
}

type PullRows = Omit<PullResponse, 'cursor' | 'last_mutation_id'>;
/** The own entities' fields (server/sync/own-rows.ts fills one pair per own entity; the schema names them). */
export type OwnPullRows = Pick<
  PullResponse,
  'notifications' | 'deleted_notifications' | 'follows' | 'deleted_follows' | 'blocks' | 'deleted_blocks' | 'mutes' | 'deleted_mutes'
>;

/**
 * A reset: the feed window (or its first `windowPage` videos and where the rest starts), the open
 * comment lists, the profile and the boards, read whole.
 */
async function readSnapshot(deps: AppDeps, trx: Transaction<Database>, userId: string, open: string[], windowPage?: number): Promise<PullRows> {
  const via = readVia(deps.engine, trx);
  const page = await readFeedPage(via, userId, windowPage ?? FEED_WINDOW, null);
  const videos = page.items;
  const comments = await readNewestComments(via, userId, open, COMMENTS_PER_VIDEO);
  return {
    reset: true,
    videos,
    deleted_videos: [],
    comments,
    deleted_comments: [],
    comments_loaded: open,
    profile: await readProfile(trx, userId),
    leaderboards: await readLeaderboards(trx, userId, deps.now()),
    ...((await readOwnSnapshot(trx, userId)) as OwnPullRows),
    ...(windowPage === undefined ? {} : { window_next: page.next_cursor }),
  };
}

/**
 * The next page of a window being filled, read in the same snapshot as the changes, so one apply
 * writes both under the one cursor; a video that is both changed and on the page is sent once.
 */
async function readWindowPage(
  deps: AppDeps,
  trx: Transaction<Database>,
  userId: string,
  changed: FeedItem[],
  size: number,
  after: NonNullable<Cursor>,
): Promise<Pick<PullRows, 'videos' | 'window_next'>> {
  const page = await readFeedPage(readVia(deps.engine, trx), userId, size, after);
  const sent = new Set(changed.map((v) => v.id));
  return { videos: [...changed, ...page.items.filter((v) => !sent.has(v.id))], window_next: page.next_cursor };
}

/** The rows the changes touched; a changed id whose row is gone (or no longer visible) is sent as deleted. */
async function readChangedRows(deps: AppDeps, trx: Transaction<Database>, userId: string, sets: ChangeSets, load: ReadonlySet<string>): Promise<PullRows> {
  const { changedComments, deletedComments } = sets;
  const via = readVia(deps.engine, trx);
  const { videos, deletedVideos } = await readVideoChanges(via, userId, sets);
  const comments = await readCommentsByIds(via, userId, [...changedComments]);
  const presentComments = new Set(comments.map((c) => c.id));
  for (const id of changedComments) if (!presentComments.has(id)) deletedComments.add(id);
  const loaded = [...load];
  const full = await readNewestComments(via, userId, loaded, COMMENTS_PER_VIDEO);

  return {
    reset: false,
    videos,
    deleted_videos: deletedVideos,
    comments: [...comments, ...full],
    deleted_comments: [...deletedComments],
    comments_loaded: loaded,
    profile: sets.renamedUsers.has(userId) || sets.accounts.has(userId) ? await readProfile(trx, userId) : null,
    // Likes, comments, views, deletions and renames all move or relabel the boards.
    leaderboards: sets.count ? await readLeaderboards(trx, userId, deps.now()) : null,
    ...((await readOwnChanges(trx, userId, sets.own)) as OwnPullRows),
  };
}

/** The caller's own profile as a pull carries it (also read by the live deltas). */
export async function readProfile(trx: Transaction<Database>, userId: string) {
  const p = await trx
    .selectFrom('profiles')
    .select(['id', 'email', 'name', 'handle', 'followers_count', 'following_count', 'is_admin', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return p
    ? {
        id: p.id,
        email: p.email,
        name: p.name,
        handle: p.handle,
        followers_count: Number(p.followers_count),
        following_count: Number(p.following_count),
        is_admin: p.is_admin === 1,
        created_at: new Date(p.created_at).toISOString(),
      }
    : null;
}
