import { mutationDef } from '#sync/mutations/catalogue';
import type { CommentItem, FeedItem, ProfileItem } from '#sync/protocol/messages';
import { CURSOR_KEY, commentsLoadedKey, FEED_END_KEY, getMeta, LAST_SYNCED_KEY, type ClientDb, type CommentRow, type OutboxEntry, type VideoRow } from './db';

// The reads behind the UI hooks, as plain functions over the local database (the hooks wrap them
// in useLiveQuery), so they are tested without a browser.

export type LocalFeedItem = FeedItem & { pending: boolean };
/** `muted`: its author is muted by the member (shown collapsed, with a way to show it). */
export type LocalComment = CommentItem & { pending: boolean; muted?: boolean };
export type LocalProfile = ProfileItem & { pending: boolean };

export interface FeedSnapshot {
  items: LocalFeedItem[];
  /** A pull has been applied at least once (a cursor is stored). */
  synced: boolean;
  /** The server has nothing older than what the device holds. */
  end: boolean;
}

/** The members the signed-in member blocked and muted, as the device knows them (queued ones applied). */
export interface HiddenMembers {
  blocked: ReadonlySet<string>;
  muted: ReadonlySet<string>;
}

export const NO_HIDDEN: HiddenMembers = { blocked: new Set(), muted: new Set() };

/**
 * Read from the blocks and mutes stores: a block or mute purges the member's cached rows at once
 * (sync/entities/registry.ts, `purges`), and these keep out what a later page or pull brings before
 * the server has seen the change.
 */
export async function readHiddenMembers(db: ClientDb, userId: string | null): Promise<HiddenMembers> {
  if (!userId) return NO_HIDDEN;
  const [blocks, mutes] = await Promise.all([
    db.blocks.where('id').startsWith(`${userId}:`).toArray(),
    db.mutes.where('id').startsWith(`${userId}:`).toArray(),
  ]);
  return { blocked: new Set(blocks.map((b) => b.blocked_id)), muted: new Set(mutes.map((m) => m.muted_id)) };
}

/** Whether a video of `ownerId` stays out of the member's feeds (a blocked or a muted member's). */
export const hiddenFromFeeds = (hidden: HiddenMembers, ownerId: string): boolean => hidden.blocked.has(ownerId) || hidden.muted.has(ownerId);

export async function readFeed(db: ClientDb, userId: string | null): Promise<FeedSnapshot> {
  const [rows, queued, cursor, feedEnd, hidden] = await Promise.all([
    db.videos.orderBy('[created_ms+id]').reverse().toArray(),
    userId ? db.outbox.where('user_id').equals(userId).toArray() : [],
    getMeta(db, CURSOR_KEY),
    getMeta<boolean>(db, FEED_END_KEY),
    readHiddenMembers(db, userId),
  ]);
  return feedItems(rows, queued, cursor, feedEnd, hidden);
}

/** The feed from its parts: `rows` newest first, `queued` the user's outbox, two meta values, the members left out. */
export function feedItems(rows: VideoRow[], queued: OutboxEntry[], cursor: unknown, feedEnd: unknown, hidden: HiddenMembers = NO_HIDDEN): FeedSnapshot {
  const pending = new Set(queued.filter((e) => e.video_id && mutationDef(e.name)?.pendingOnCard).map((e) => e.video_id));
  const items = rows.filter((v) => !hiddenFromFeeds(hidden, v.user_id)).map(({ created_ms: _ms, ...v }) => ({ ...v, pending: pending.has(v.id) }));
  return { items, synced: cursor != null, end: feedEnd === true };
}

/** A video's comments as the dialog shows them, grouped into two-deep threads (docs/decisions/0023-conversations.md). */
export interface CommentsSnapshot {
  /** The top-level comments: the pinned one first, then newest first. */
  comments: LocalComment[];
  /** Each top-level comment's replies the device holds (loaded threads, replies written here), oldest first. */
  replies: Record<string, LocalComment[]>;
  /** The list has been loaded whole at least once. */
  loaded: boolean;
  /** When it was last loaded whole (that drops the threads' replies), or null. */
  loadedAt: number | null;
}

export async function readComments(db: ClientDb, userId: string | null, videoId: string): Promise<CommentsSnapshot> {
  const [rows, queued, loadedAt, hidden] = await Promise.all([
    db.comments.where('[video_id+created_ms]').between([videoId, -Infinity], [videoId, Infinity]).toArray(),
    userId ? db.outbox.where('user_id').equals(userId).toArray() : [],
    getMeta<number>(db, commentsLoadedKey(videoId)),
    readHiddenMembers(db, userId),
  ]);
  return { ...commentThreads(rows, queued, hidden), loaded: loadedAt !== undefined, loadedAt: loadedAt ?? null };
}

type Queued = Pick<OutboxEntry, 'name' | 'args'> & { seq?: number };

const newestFirst = (a: CommentRow, b: CommentRow) => b.created_ms - a.created_ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The threads from the stored rows and the member's queue: pending comments marked, the queued pins
 * applied over the stored flags (the device's copy of a video does not know its pin, so a queued pin
 * leaves the old one flagged: sync/entities/registry.ts, VideoRef), a queued reply's @handle taken
 * from the comment it answers. A reply whose top-level comment the device does not hold is left out,
 * so are a blocked member's comments (and the replies under them); a muted member's are marked `muted`.
 */
export function commentThreads(rows: CommentRow[], queued: Queued[], hidden: HiddenMembers = NO_HIDDEN): Pick<CommentsSnapshot, 'comments' | 'replies'> {
  const inOrder = [...queued].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const pending = new Set(inOrder.map((e) => mutationDef(e.name)?.pendingComment?.(e.args)).filter((id) => id !== undefined));
  const answers = queuedReplyTargets(inOrder);
  const pinnedIds = pinnedAfter(rows, inOrder);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const local = (row: CommentRow): LocalComment => {
    const { created_ms: _ms, ...c } = row;
    const pinned = pinnedIds.has(c.id);
    const target = c.reply_to_handle === null && c.parent_id !== null ? byId.get(answers.get(c.id) ?? '') : undefined;
    const shown = { ...c, pinned, reply_to_handle: target ? target.handle : c.reply_to_handle, pending: pending.has(c.id) };
    return hidden.muted.has(c.user_id) ? { ...shown, muted: true } : shown;
  };
  const sorted = rows.filter((r) => !hidden.blocked.has(r.user_id)).sort(newestFirst);
  const tops = sorted.filter((r) => r.parent_id === null).map(local);
  const shownTops = new Set(tops.map((c) => c.id));
  const replies: Record<string, LocalComment[]> = {};
  for (const r of sorted.reverse()) if (r.parent_id !== null && shownTops.has(r.parent_id)) (replies[r.parent_id] ??= []).push(local(r));
  // Stable: the pinned one moves up, the rest keep newest first.
  const comments = [...tops.filter((c) => c.pinned), ...tops.filter((c) => !c.pinned)];
  return { comments, replies };
}

/** A queued reply's id and the comment it answers (a reply to a reply names that reply, not the thread's top). */
function queuedReplyTargets(queued: Queued[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of queued) {
    const a = e.args as { commentId?: string; parentId?: string } | null;
    if (e.name === 'addComment' && a?.commentId && a.parentId) out.set(a.commentId, a.parentId);
  }
  return out;
}

/**
 * The pinned comments once the queued pins and unpins are applied in order to the stored flags: a
 * pin replaces whichever was pinned (one per video), an unpin takes its comment's off.
 */
function pinnedAfter(rows: CommentRow[], queued: Queued[]): Set<string> {
  let pinned = new Set(rows.filter((r) => r.pinned).map((r) => r.id));
  const here = new Set(rows.map((r) => r.id));
  for (const e of queued) {
    const id = (e.args as { commentId?: string } | null)?.commentId;
    // Another video's pin leaves this list alone.
    if (!id || !here.has(id)) continue;
    if (e.name === 'pinComment') pinned = new Set([id]);
    if (e.name === 'unpinComment') pinned.delete(id);
  }
  return pinned;
}

export async function readProfile(db: ClientDb, userId: string): Promise<LocalProfile | null> {
  const p = await db.profile.get(userId);
  if (!p) return null;
  const pending =
    (await db.outbox
      .where('user_id')
      .equals(userId)
      .filter((e) => !!mutationDef(e.name)?.changesProfile)
      .count()) > 0;
  return { ...p, pending };
}

export async function readSyncCounters(db: ClientDb, userId: string | null): Promise<{ pendingCount: number; lastSyncedAt: number | null }> {
  const pendingCount = userId ? await db.outbox.where('user_id').equals(userId).count() : 0;
  return { pendingCount, lastSyncedAt: (await getMeta<number>(db, LAST_SYNCED_KEY)) ?? null };
}
