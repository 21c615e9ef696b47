import type { CommentItem, FeedItem, ProfileItem } from '../../sync/protocol/messages';
import { getMeta, type ClientDb } from './db';
import { trace } from './trace';
import { CURSOR_KEY, commentsLoadedKey, FEED_END_KEY, LAST_SYNCED_KEY } from './apply-pull';

// The reads behind the UI hooks, as plain functions over the local database (the hooks wrap them
// in useLiveQuery), so they are tested without a browser.

export type LocalFeedItem = FeedItem & { pending: boolean };
export type LocalComment = CommentItem & { pending: boolean };
export type LocalProfile = ProfileItem & { pending: boolean };

/** Mutations that change nothing visible on a card do not mark it pending. */
const INVISIBLE = new Set(['recordView']);

export async function readFeed(db: ClientDb, userId: string | null): Promise<{ items: LocalFeedItem[]; synced: boolean; end: boolean }> {
  trace('feed:query');
  // All four reads go out at once: a live query re-runs after every sync write, and one round trip
  // instead of four is most of its cost.
  const [rows, queued, cursor, feedEnd] = await Promise.all([
    db.videos.orderBy('[created_ms+id]').reverse().toArray(),
    userId ? db.outbox.where('user_id').equals(userId).toArray() : [],
    getMeta(db, CURSOR_KEY),
    getMeta<boolean>(db, FEED_END_KEY),
  ]);
  trace('feed:rows');
  const pending = new Set(queued.filter((e) => e.video_id && !INVISIBLE.has(e.name)).map((e) => e.video_id));
  const items = rows.map(({ created_ms: _ms, ...v }) => ({ ...v, pending: pending.has(v.id) }));
  const synced = cursor != null;
  const end = feedEnd === true;
  trace('feed:read');
  return { items, synced, end };
}

export async function readComments(db: ClientDb, userId: string | null, videoId: string): Promise<{ comments: LocalComment[]; loaded: boolean }> {
  const rows = await db.comments.where('[video_id+created_ms]').between([videoId, -Infinity], [videoId, Infinity]).reverse().toArray();
  const queued = userId ? await db.outbox.where('user_id').equals(userId).toArray() : [];
  const pending = new Set(queued.filter((e) => e.name === 'addComment').map((e) => (e.args as { commentId: string }).commentId));
  const comments = rows.map(({ created_ms: _ms, ...c }) => ({ ...c, pending: pending.has(c.id) }));
  const loaded = (await getMeta<number>(db, commentsLoadedKey(videoId))) !== undefined;
  return { comments, loaded };
}

export async function readProfile(db: ClientDb, userId: string): Promise<LocalProfile | null> {
  const p = await db.profile.get(userId);
  if (!p) return null;
  const pending = (await db.outbox.where('user_id').equals(userId).filter((e) => e.name === 'updateProfileName').count()) > 0;
  return { ...p, pending };
}

export async function readSyncCounters(db: ClientDb, userId: string | null): Promise<{ pendingCount: number; lastSyncedAt: number | null }> {
  const pendingCount = userId ? await db.outbox.where('user_id').equals(userId).count() : 0;
  return { pendingCount, lastSyncedAt: (await getMeta<number>(db, LAST_SYNCED_KEY)) ?? null };
}
