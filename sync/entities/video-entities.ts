// Zod-free: the client replays queued mutations (and so reads these declarations) on its first screen.
import { defineEntity } from './define-entity';

// A video and what members do with it: likes, comments (and their likes), shares, views. Declared
// once each (docs/sync.md, "Entities"); registry.ts lists them.

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
  /** Written by an edit (sync/mutations/edit-video.ts), never read by a mutation: not among `columns`. */
  title?: string;
  description?: string;
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
