// Zod-free: the client replays queued mutations (and so reads these declarations) on its first screen.
import { NOTIFICATIONS_WINDOW } from '#sync/protocol/limits';
import { defineEntity } from './define-entity';

/*
 * Every synced entity, declared once (docs/sync.md, "Entities"). The row types are what mutations
 * read and write: the server's columns of the same names (db/tables/*.ts; server-tables.ts checks
 * that they match). Adding an entity: its declaration here, its migration, and its mutations.
 */

/** What a mutation knows of a video. */
export interface VideoRef {
  id: string;
  user_id: string;
  duration_ms: number;
  /**
   * Whether its media is playable yet. The server always knows; the client's optimistic copy leaves
   * it out, and then the server alone decides (a refusal rolls the optimistic effect back).
   */
  media_status?: 'processing' | 'ready' | 'failed';
  /** The comment its owner pinned. The server always knows; the client's copy leaves it out (rebase then resets the list). */
  pinned_comment_id?: string | null;
}

export const videos = defineEntity<VideoRef>()({
  table: 'videos',
  key: ['id'],
  columns: ['id', 'user_id', 'duration_ms', 'media_status', 'pinned_comment_id'],
  counters: ['likes_count', 'comments_count', 'shares_count'],
  log: { entity: 'video', pull: 'video' },
  changes: (v) => ({ entityId: v.id, videoId: v.id, reaches: `video:${v.id}` }),
  client: {
    kind: 'store',
    store: 'videos',
    indexes: 'id, [created_ms+id], user_id',
    serverIndexes: 'id, [created_ms+id], user_id',
    since: 1,
    read: (v) => ({ id: v.id as string, user_id: v.user_id as string, duration_ms: v.duration_ms as number }),
    cascade: [{ store: 'comments', by: 'video_id' }],
  },
  rebase: { reset: 'server_videos', by: 'id' },
});

export interface LikeRow {
  video_id: string;
  user_id: string;
  created_at: number;
}

/** The device holds only its member's likes, as the card's `liked_by_me`. */
export const likes = defineEntity<LikeRow>()({
  table: 'likes',
  key: ['video_id', 'user_id'],
  columns: ['video_id', 'user_id', 'created_at'],
  stamps: { insert: 'created_at' },
  log: { entity: 'like', pull: 'video-counts' },
  changes: (l) => ({ entityId: `${l.video_id}:${l.user_id}`, videoId: l.video_id, userId: l.user_id, reaches: `video:${l.video_id}` }),
  client: { kind: 'flag', store: 'videos', key: 'video_id', flag: 'liked_by_me', owner: 'user_id' },
  rebase: 'none',
});

export interface CommentRow {
  id: string;
  video_id: string;
  user_id: string;
  content: string;
  created_at: number;
  /** The top-level comment a reply is under (depth two), null for a top-level comment. */
  parent_id: string | null;
  /** Whom a reply answers, null for a top-level comment. */
  reply_to_user_id: string | null;
  /** 1: a tombstone kept for its replies (its text emptied). */
  deleted: number;
  /** 1: its video's owner pinned it. */
  pinned: number;
  /** Its replies (a counter: a new row starts at 0). Read by a deletion: a comment with replies stays as a tombstone. */
  reply_count: number;
}

/** A comment as the device stores it: the API item (sync/protocol/messages.ts) and its time in ms. */
function readStoredComment(c: Record<string, unknown>): CommentRow {
  return {
    id: c.id as string,
    video_id: c.video_id as string,
    user_id: c.user_id as string,
    content: c.content as string,
    created_at: c.created_ms as number,
    parent_id: (c.parent_id as string | null | undefined) ?? null,
    reply_to_user_id: (c.reply_to_user_id as string | null | undefined) ?? null,
    deleted: c.deleted ? 1 : 0,
    pinned: c.pinned ? 1 : 0,
    reply_count: (c.reply_count as number | undefined) ?? 0,
  };
}

/** The stored columns of a patch: the API item says deleted and pinned as booleans. */
function patchStoredComment(p: Partial<CommentRow>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...p };
  if ('deleted' in p) out.deleted = p.deleted === 1;
  if ('pinned' in p) out.pinned = p.pinned === 1;
  return out;
}

export const comments = defineEntity<CommentRow>()({
  table: 'comments',
  key: ['id'],
  columns: ['id', 'video_id', 'user_id', 'content', 'created_at', 'parent_id', 'reply_to_user_id', 'deleted', 'pinned', 'reply_count'],
  // A reply or a like moves its comment's count, shown on the comment: the row's change is declared.
  counters: ['reply_count', 'likes_count'],
  countersChange: true,
  stamps: { insert: 'created_at' },
  log: { entity: 'comment', pull: 'video-list' },
  changes: (c) => ({ entityId: c.id, videoId: c.video_id, userId: c.user_id, reaches: `video:${c.video_id}` }),
  client: {
    kind: 'store',
    store: 'comments',
    indexes: 'id, video_id, [video_id+created_ms]',
    serverIndexes: 'id, video_id',
    since: 1,
    read: readStoredComment,
    write: (c, local) => ({
      ...c,
      name: local.userName,
      handle: local.userHandle,
      created_at: new Date(c.created_at).toISOString(),
      created_ms: c.created_at,
      reply_to_handle: null,
      likes_count: 0,
      liked_by_me: false,
      deleted: c.deleted === 1,
      pinned: c.pinned === 1,
      mentions: [],
    }),
    patch: patchStoredComment,
  },
  // A comment list is reset whole: the device shows the comments the server sent for the video.
  rebase: { reset: 'server_comments', by: 'video_id' },
});

export interface CommentLikeRow {
  comment_id: string;
  user_id: string;
  video_id: string;
  created_at: number;
}

/**
 * One member's like of a comment. The device holds only its member's, as the comment's
 * `liked_by_me`. It declares no change of its own: the comment's likes_count increment declares the
 * comment's, and every device following the list reads the comment again, with its own liked_by_me.
 */
export const comment_likes = defineEntity<CommentLikeRow>()({
  table: 'comment_likes',
  key: ['comment_id', 'user_id'],
  columns: ['comment_id', 'user_id', 'video_id', 'created_at'],
  stamps: { insert: 'created_at' },
  log: { entity: 'comment', pull: 'video-list' },
  changes: () => null,
  client: { kind: 'flag', store: 'comments', key: 'comment_id', flag: 'liked_by_me', owner: 'user_id' },
  rebase: 'none',
});

export interface ShareRow {
  id: string;
  video_id: string;
  user_id: string;
  created_at: number;
}

/**
 * Every share is stored (its id makes a replay harmless); the video's count counts members. The
 * device keeps none (a share id is never reused by a client): its card counts every share at once,
 * and the server's count replaces it. Logged as its video's change, even when the count stays: the
 * sharing device counted it and must pull the real count.
 */
export const shares = defineEntity<ShareRow>()({
  table: 'shares',
  key: ['id'],
  columns: ['id', 'video_id', 'user_id', 'created_at'],
  stamps: { insert: 'created_at' },
  log: { entity: 'video', pull: 'video' },
  changes: (s) => ({ entityId: s.video_id, videoId: s.video_id, reaches: `video:${s.video_id}` }),
  client: { kind: 'none' },
  rebase: 'none',
});

export interface ViewRow {
  video_id: string;
  user_id: string;
  watched_ms: number;
  created_at: number;
}

/** One per viewer and video; written by the view rule (server/rewards/view-rules.ts), never shown optimistically. */
export const views = defineEntity<ViewRow>()({
  table: 'views',
  key: ['video_id', 'user_id'],
  columns: ['video_id', 'user_id', 'watched_ms', 'created_at'],
  stamps: { insert: 'created_at' },
  log: { entity: 'video', pull: 'video' },
  changes: (v) => ({ entityId: v.video_id, videoId: v.video_id, reaches: `video:${v.video_id}` }),
  client: { kind: 'none' },
  rebase: 'none',
});

export interface ProfileRow {
  id: string;
  name: string;
  /** Lower case, unique (sync/protocol/handles.ts). */
  handle: string;
}

/** Names show on feed cards and comments: a change reaches every member. */
export const profiles = defineEntity<ProfileRow>()({
  table: 'profiles',
  key: ['id'],
  columns: ['id', 'name', 'handle'],
  // Moved by follow and unfollow, by the rows they really wrote (sync/mutations/follow.ts).
  counters: ['followers_count', 'following_count'],
  stamps: { update: 'updated_at' },
  log: { entity: 'profile', pull: 'author' },
  changes: (p) => ({ entityId: p.id, userId: p.id, reaches: 'feed' }),
  client: { kind: 'store', store: 'profile', indexes: 'id', serverIndexes: 'id', since: 1 },
  rebase: { reset: 'server_profile', by: 'id' },
});

export interface NotificationRow {
  id: string;
  user_id: string;
  read_at: number | null;
}

/**
 * A member's own: a change reaches only that member's devices. Read marks only ever go one way, so
 * the device keeps no server copy: a pull's row is put, and rebase applies the queued marks again.
 */
export const notifications = defineEntity<NotificationRow>()({
  table: 'notifications',
  key: ['id'],
  columns: ['id', 'user_id', 'read_at'],
  log: { entity: 'notification', pull: 'own' },
  changes: (n) => ({ entityId: n.id, userId: n.user_id, reaches: `user:${n.user_id}` }),
  client: {
    kind: 'store',
    store: 'notifications',
    indexes: 'id, updated_ms, video_id',
    since: 2,
    patch: (p) => ('read_at' in p ? { read: p.read_at !== null } : {}),
    fromServer: (n) => ({ ...n, updated_ms: Date.parse(n.updated_at as string) }),
    newest: { max: NOTIFICATIONS_WINDOW, by: 'updated_ms' },
  },
  rebase: 'replay',
});

export interface FollowRow {
  follower_id: string;
  followee_id: string;
  created_at: number;
}

/**
 * A member following another. The device keeps its own member's follows, all of them (a snapshot
 * sends them whole: the Follow buttons and the Following feed read them offline); a change reaches
 * the follower's devices only. The followee learns by a notification, not by this row.
 */
export const follows = defineEntity<FollowRow>()({
  table: 'follows',
  key: ['follower_id', 'followee_id'],
  columns: ['follower_id', 'followee_id', 'created_at'],
  stamps: { insert: 'created_at' },
  log: { entity: 'follow', pull: 'own' },
  changes: (f) => ({
    entityId: `${f.follower_id}:${f.followee_id}`,
    userId: f.follower_id,
    reaches: `user:${f.follower_id}`,
  }),
  client: {
    kind: 'store',
    store: 'follows',
    indexes: 'id, followee_id',
    serverIndexes: 'id',
    since: 3,
    write: (f) => ({ ...f, id: `${f.follower_id}:${f.followee_id}` }),
  },
  rebase: { reset: 'server_follows', by: 'id' },
});

export interface BlockRow {
  blocker_id: string;
  blocked_id: string;
  created_at: number;
}

/** What a block or a mute takes off the device at once: the other member's cached videos, comments and notifications. */
const purgesOf = <R>(from: keyof R & string) =>
  [
    { store: 'videos', by: 'user_id', from },
    { store: 'server_videos', by: 'user_id', from },
    { store: 'comments', by: 'user_id', from },
    { store: 'server_comments', by: 'user_id', from },
    { store: 'notifications', by: 'actor_id', from },
  ] as const;

/**
 * A member blocking another (docs/decisions/0024-safety.md). The device keeps its own member's
 * blocks, all of them (a snapshot sends them whole), and a block takes the blocked member's cached
 * rows at once; the server's reads leave either member out for the other, and both members' devices
 * load a snapshot after it (`changes.resync`). The blocked member is never sent the row.
 */
export const blocks = defineEntity<BlockRow>()({
  table: 'blocks',
  key: ['blocker_id', 'blocked_id'],
  columns: ['blocker_id', 'blocked_id', 'created_at'],
  stamps: { insert: 'created_at' },
  log: { entity: 'block', pull: 'own' },
  changes: (b) => ({ entityId: `${b.blocker_id}:${b.blocked_id}`, userId: b.blocker_id, reaches: `user:${b.blocker_id}` }),
  client: {
    kind: 'store',
    store: 'blocks',
    indexes: 'id, blocked_id',
    serverIndexes: 'id',
    since: 5,
    write: (b) => ({ ...b, id: `${b.blocker_id}:${b.blocked_id}` }),
    purges: purgesOf<BlockRow>('blocked_id'),
  },
  rebase: { reset: 'server_blocks', by: 'id' },
});

export interface MuteRow {
  muter_id: string;
  muted_id: string;
  created_at: number;
}

/** A member muting another: one-way and silent, the muter's own (like a block, but only the muter's reads change). */
export const mutes = defineEntity<MuteRow>()({
  table: 'mutes',
  key: ['muter_id', 'muted_id'],
  columns: ['muter_id', 'muted_id', 'created_at'],
  stamps: { insert: 'created_at' },
  log: { entity: 'mute', pull: 'own' },
  changes: (m) => ({ entityId: `${m.muter_id}:${m.muted_id}`, userId: m.muter_id, reaches: `user:${m.muter_id}` }),
  client: {
    kind: 'store',
    store: 'mutes',
    indexes: 'id, muted_id',
    serverIndexes: 'id',
    since: 5,
    write: (m) => ({ ...m, id: `${m.muter_id}:${m.muted_id}` }),
    // Their videos leave the feeds and their notifications go; their comments stay, collapsed.
    purges: purgesOf<MuteRow>('muted_id').filter((p) => !p.store.includes('comments')),
  },
  rebase: { reset: 'server_mutes', by: 'id' },
});

/** The registry: `tx.<name>` in every mutation (mutation-tx.ts), each named as its table. */
export const entities = { videos, likes, comments, comment_likes, shares, views, profiles, notifications, follows, blocks, mutes } as const;
export type Entities = typeof entities;
export type EntityName = keyof Entities;
