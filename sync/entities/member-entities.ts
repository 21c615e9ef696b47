// Zod-free: the client replays queued mutations (and so reads these declarations) on its first screen.
import { NOTIFICATIONS_WINDOW } from '#sync/protocol/limits';
import { defineEntity } from './define-entity';

// A member and what is theirs alone: the profile, notifications, follows, blocks and mutes. Declared
// once each (docs/sync.md, "Entities"); registry.ts lists them.

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
