import { mutationDef } from '#sync/mutations/catalogue';
import type { CommentItem, FeedItem, ProfileItem } from '#sync/protocol/messages';
import { CURSOR_KEY, commentsLoadedKey, FEED_END_KEY, getMeta, LAST_SYNCED_KEY, type ClientDb, type OutboxEntry, type VideoRow } from './db';

// The reads behind the UI hooks, as plain functions over the local database (the hooks wrap them
// in useLiveQuery), so they are tested without a browser.

export type LocalFeedItem = FeedItem & { pending: boolean };
export type LocalComment = CommentItem & { pending: boolean };
export type LocalProfile = ProfileItem & { pending: boolean };

export interface FeedSnapshot {
  items: LocalFeedItem[];
  /** A pull has been applied at least once (a cursor is stored). */
  synced: boolean;
  /** The server has nothing older than what the device holds. */
  end: boolean;
}

export async function readFeed(db: ClientDb, userId: string | null): Promise<FeedSnapshot> {
  const [rows, queued, cursor, feedEnd] = await Promise.all([
    db.videos.orderBy('[created_ms+id]').reverse().toArray(),
    userId ? db.outbox.where('user_id').equals(userId).toArray() : [],
    getMeta(db, CURSOR_KEY),
    getMeta<boolean>(db, FEED_END_KEY),
  ]);
  return feedItems(rows, queued, cursor, feedEnd);
}

/** The feed from its parts: `rows` newest first, `queued` the user's outbox, two meta values. */
export function feedItems(rows: VideoRow[], queued: OutboxEntry[], cursor: unknown, feedEnd: unknown): FeedSnapshot {
  const pending = new Set(queued.filter((e) => e.video_id && mutationDef(e.name)?.pendingOnCard).map((e) => e.video_id));
  const items = rows.map(({ created_ms: _ms, ...v }) => ({ ...v, pending: pending.has(v.id) }));
  return { items, synced: cursor != null, end: feedEnd === true };
}

export async function readComments(db: ClientDb, userId: string | null, videoId: string): Promise<{ comments: LocalComment[]; loaded: boolean }> {
  const rows = await db.comments.where('[video_id+created_ms]').between([videoId, -Infinity], [videoId, Infinity]).reverse().toArray();
  const queued = userId ? await db.outbox.where('user_id').equals(userId).toArray() : [];
  const pending = new Set(queued.map((e) => mutationDef(e.name)?.pendingComment?.(e.args)).filter((id) => id !== undefined));
  const comments = rows.map(({ created_ms: _ms, ...c }) => ({ ...c, pending: pending.has(c.id) }));
  const loaded = (await getMeta<number>(db, commentsLoadedKey(videoId))) !== undefined;
  return { comments, loaded };
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
