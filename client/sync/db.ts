import { Dexie, type EntityTable } from 'dexie';
import type { CommentItem, FeedItem, ProfileItem } from '#sync/protocol/messages';
import type { NotificationItem } from '#sync/protocol/notifications';
import { entities } from '#sync/entities/registry';

/** A feed row as stored: the API item plus a numeric time for ordering. */
export interface VideoRow extends FeedItem {
  created_ms: number;
}

export interface CommentRow extends CommentItem {
  created_ms: number;
}

export type ProfileRow = ProfileItem;

/** A notification as stored: the API item plus a numeric time for ordering (newest first). */
export interface NotificationRow extends NotificationItem {
  updated_ms: number;
}

/** A follow as stored: keyed `follower:followee`. */
export interface FollowStoreRow {
  id: string;
  follower_id: string;
  followee_id: string;
  created_at: number;
}

/** A block as stored: keyed `blocker:blocked`. */
export interface BlockStoreRow {
  id: string;
  blocker_id: string;
  blocked_id: string;
  created_at: number;
  /** The other member's name and handle, as the server last sent them (the device's own row has none until it pulls). */
  name?: string;
  handle?: string;
}

/** A mute as stored: keyed `muter:muted`. */
export interface MuteStoreRow {
  id: string;
  muter_id: string;
  muted_id: string;
  created_at: number;
  /** The other member's name and handle, as the server last sent them (the device's own row has none until it pulls). */
  name?: string;
  handle?: string;
}

export interface LeaderboardsRow {
  id: 'current';
  data: unknown;
  as_of: number;
}

/**
 * One queued mutation. `user_id` tags whose it is: it is only ever pushed with that user's token.
 * 'pending' is not yet acknowledged; 'sent' was applied by the server and waits for the pull that
 * carries its effect (then it is dropped, in the same transaction, so the UI never flickers).
 */
export interface OutboxEntry {
  seq?: number;
  user_id: string;
  client_id: string;
  id: number;
  name: string;
  args: unknown;
  client_time: number;
  status: 'pending' | 'sent';
  video_id: string | null;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

// The meta table's keys live here, not with apply-pull.ts (which writes them): the first screen's
// readers then do not load the pull and rebase code.
export const CURSOR_KEY = 'cursor';
export const LAST_SYNCED_KEY = 'lastSyncedAt';
/** True once the server said there is nothing older than what the device holds. */
export const FEED_END_KEY = 'feedEnd';
export const commentsLoadedKey = (videoId: string) => `comments:${videoId}`;

/**
 * The device's local copy. Tables without a prefix are what the UI reads (server state with the
 * pending mutations applied on top); the `server_` tables hold the last state the server sent, so
 * a rebase can start over from it.
 */
export type ClientDb = Dexie & {
  videos: EntityTable<VideoRow, 'id'>;
  server_videos: EntityTable<VideoRow, 'id'>;
  comments: EntityTable<CommentRow, 'id'>;
  server_comments: EntityTable<CommentRow, 'id'>;
  profile: EntityTable<ProfileRow, 'id'>;
  server_profile: EntityTable<ProfileRow, 'id'>;
  leaderboards: EntityTable<LeaderboardsRow, 'id'>;
  /** The bell's list: the server's rows with queued read marks applied on top. */
  notifications: EntityTable<NotificationRow, 'id'>;
  /** The member's own follows (sync/entities/registry.ts, `follows`), all of them. */
  follows: EntityTable<FollowStoreRow, 'id'>;
  server_follows: EntityTable<FollowStoreRow, 'id'>;
  /** The member's own blocks and mutes (sync/entities/registry.ts), all of them. */
  blocks: EntityTable<BlockStoreRow, 'id'>;
  server_blocks: EntityTable<BlockStoreRow, 'id'>;
  mutes: EntityTable<MuteStoreRow, 'id'>;
  server_mutes: EntityTable<MuteStoreRow, 'id'>;
  outbox: EntityTable<OutboxEntry, 'seq'>;
  meta: EntityTable<MetaRow, 'key'>;
};

export const DEFAULT_DB_NAME = 'vidi';

/** Opens the local database; tests pass their own IndexedDB factory (one per simulated device). */
export function openClientDb(name = DEFAULT_DB_NAME, opts: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {}): ClientDb {
  const options: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange } = {};
  if (opts.indexedDB) options.indexedDB = opts.indexedDB;
  if (opts.IDBKeyRange) options.IDBKeyRange = opts.IDBKeyRange;
  const db = new Dexie(name, options) as ClientDb;
  // The entities' stores (and their server_ copies) come from their declarations, by the version that
  // added them (sync/entities/registry.ts); the rest are the device's own.
  db.version(1).stores({ ...entityStores(1), leaderboards: 'id', outbox: '++seq, user_id, [user_id+status], [client_id+id]', meta: 'key' });
  db.version(2).stores(entityStores(2));
  db.version(3).stores(entityStores(3));
  // Comments gained threads, likes and pins, and their author's fields were renamed (name, handle):
  // the lists cached before are dropped and load again whole when opened.
  db.version(4)
    .stores(entityStores(4))
    .upgrade(async (tx) => {
      await Promise.all([tx.table('comments').clear(), tx.table('server_comments').clear()]);
      await tx.table('meta').where('key').startsWith('comments:').delete();
    });
  db.version(5).stores(entityStores(5));
  return db;
}

/** The Dexie stores the entities declared for one version of the database, each with its server_ copy if it has one. */
function entityStores(version: number): Record<string, string> {
  const stores: Record<string, string> = {};
  for (const { client } of Object.values(entities)) {
    if (client.kind !== 'store' || client.since !== version) continue;
    stores[client.store] = client.indexes;
    if (client.serverIndexes) stores[`server_${client.store}`] = client.serverIndexes;
  }
  return stores;
}

/** Every table a sync write or rebase touches, for one read-write transaction: all of them. */
export function allTables(db: ClientDb) {
  return db.tables;
}

export async function getMeta<T>(db: ClientDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function setMeta(db: ClientDb, key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}

export const toVideoRow = (v: FeedItem): VideoRow => ({ ...v, created_ms: Date.parse(v.created_at) });
export const toCommentRow = (c: CommentItem): CommentRow => ({ ...c, created_ms: Date.parse(c.created_at) });
