import * as z from 'zod';
import { IdSchema } from './ids';
import { FEED_WINDOW, MAX_OPEN_VIDEOS } from './limits';
import { NotificationItemSchema } from './notifications';

export { MAX_PUSH_BATCH, FEED_WINDOW, MAX_OPEN_VIDEOS, COMMENTS_PER_VIDEO } from './limits';

export const PushMutationSchema = z.strictObject({
  /** 1, 2, 3 ... per client id, never reused. */
  id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  /** Any string: unknown names are rejected per mutation, not per request. */
  name: z.string().min(1).max(64),
  args: z.unknown(),
  /** When the user acted (ms since epoch); informational, the server stamps its own time. */
  client_time: z.number().int().min(0).optional(),
});
export type PushMutation = z.infer<typeof PushMutationSchema>;

export const PushRequestSchema = z.strictObject({
  client_id: z.uuid(),
  mutations: z.array(PushMutationSchema).min(1),
});
export type PushRequest = z.infer<typeof PushRequestSchema>;

export const MutationResultSchema = z.object({
  id: z.number().int(),
  status: z.enum(['applied', 'duplicate', 'rejected']),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type MutationResult = z.infer<typeof MutationResultSchema>;

export const PushResponseSchema = z.object({
  /** One result per processed mutation, in order; a prefix of the batch when the server stopped early. */
  results: z.array(MutationResultSchema),
  last_mutation_id: z.number().int(),
});
export type PushResponse = z.infer<typeof PushResponseSchema>;

export const FeedItemSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  /** The author's creator page is /@user_handle; '' when the author is gone. */
  user_handle: z.string(),
  title: z.string(),
  description: z.string(),
  /** The original upload, byte for byte (its owner and re-processing use it; players use hls_url). */
  video_url: z.string(),
  poster_url: z.string().nullable(),
  created_at: z.string(),
  duration_ms: z.number(),
  /** Processing state (docs/media.md): only the uploader ever sees a video that is not 'ready'. */
  media_status: z.enum(['processing', 'ready', 'failed']),
  /** 0-100 while processing. */
  media_progress: z.number(),
  /** Why processing failed (shown as "We couldn't process this video: …"); null otherwise. */
  media_error: z.string().nullable(),
  /** The HLS master playlist, same origin; null until renditions exist. */
  hls_url: z.string().nullable(),
  /** The small progressive MP4 (360p, fast start): offline copies and players without HLS or MSE. */
  mp4_url: z.string().nullable(),
  /** WebVTT captions, when the uploader sent them. */
  captions_url: z.string().nullable(),
  likes_count: z.number(),
  comments_count: z.number(),
  shares_count: z.number(),
  views_count: z.number(),
  liked_by_me: z.boolean(),
});
export type FeedItem = z.infer<typeof FeedItemSchema>;

export const FeedPageSchema = z.object({ items: z.array(FeedItemSchema), next_cursor: z.string().nullable() });
export type FeedPage = z.infer<typeof FeedPageSchema>;

export const CommentItemSchema = z.object({
  id: z.string(),
  video_id: z.string(),
  user_id: z.string(),
  /** The author's shown name ('' on a tombstone, 'Unknown User' when the author is gone). */
  name: z.string(),
  /** The author's creator page is /@handle; '' when the author is gone, and on a tombstone. */
  handle: z.string(),
  /** '' on a tombstone: a deleted comment's words are kept nowhere. */
  content: z.string(),
  created_at: z.string(),
  /** The top-level comment a reply is under; null for a top-level comment (threads are two deep). */
  parent_id: z.string().nullable(),
  /** Whom a reply answers, shown as @reply_to_handle. */
  reply_to_user_id: z.string().nullable(),
  reply_to_handle: z.string().nullable(),
  reply_count: z.number().int(),
  likes_count: z.number().int(),
  liked_by_me: z.boolean(),
  /** Pinned by the video's owner: shown first. */
  pinned: z.boolean(),
  /** A tombstone ("Comment deleted") kept for its replies. */
  deleted: z.boolean(),
  /** The @handles in the text that name members (sync/protocol/mentions.ts): shown as links; others stay text. */
  mentions: z.array(z.string()),
});
export type CommentItem = z.infer<typeof CommentItemSchema>;

export const CommentsPageSchema = z.object({ items: z.array(CommentItemSchema), next_cursor: z.string().nullable() });

export const ProfileItemSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  /** The creator page's address: /@handle (sync/protocol/handles.ts). */
  handle: z.string(),
  followers_count: z.number(),
  following_count: z.number(),
  is_admin: z.boolean(),
  created_at: z.string(),
});
export type ProfileItem = z.infer<typeof ProfileItemSchema>;

/** One of the caller's own follows, as the device keeps it (id `follower:followee`). */
export const FollowItemSchema = z.object({ id: z.string(), follower_id: z.string(), followee_id: z.string(), created_at: z.number() });

/** The other member of a block or mute as they are now: /profile lists them by it. */
const otherMember = { name: z.string().optional(), handle: z.string().optional() };
/** One of the caller's own blocks (id `blocker:blocked`); the blocked member is never sent it. */
export const BlockItemSchema = z.object({ id: z.string(), blocker_id: z.string(), blocked_id: z.string(), created_at: z.number(), ...otherMember });
/** One of the caller's own mutes (id `muter:muted`). */
export const MuteItemSchema = z.object({ id: z.string(), muter_id: z.string(), muted_id: z.string(), created_at: z.number(), ...otherMember });

export const PullRequestSchema = z.strictObject({
  /** The client id whose acknowledged mutations the response confirms (last_mutation_id). */
  client_id: z.uuid().optional(),
  /** The change-log seq of the last pull, as a decimal string; null for a first (full) pull. */
  cursor: z.string().max(20).nullable(),
  /** Videos whose comment lists the client follows (the comments dialog is open). */
  open_videos: z.array(IdSchema).max(MAX_OPEN_VIDEOS).default([]),
  /** Among open_videos: those the client has no comments for yet; their lists are sent in full. */
  load_comments: z.array(IdSchema).max(MAX_OPEN_VIDEOS).default([]),
  /**
   * The most videos a snapshot answer carries; the rest of the window then follows in pages
   * (`window_after`), each applied with its own cursor (docs/decisions/0028-the-window-in-pages.md).
   * Absent: a snapshot carries the whole window (FEED_WINDOW).
   */
  window_page: z.number().int().min(1).max(FEED_WINDOW).optional(),
  /** The `window_next` of the last answer: this answer also carries the next `window_page` videos below it. */
  window_after: z.string().max(200).optional(),
});
export type PullRequest = z.input<typeof PullRequestSchema>;

export const PullResponseSchema = z.object({
  cursor: z.string(),
  /** True when the response is a full snapshot: the client replaces its feed window. */
  reset: z.boolean(),
  videos: z.array(FeedItemSchema),
  deleted_videos: z.array(z.string()),
  comments: z.array(CommentItemSchema),
  deleted_comments: z.array(z.string()),
  /** Videos whose comments were sent in full (replace the local list). */
  comments_loaded: z.array(z.string()),
  profile: ProfileItemSchema.nullable(),
  /** The leaderboards snapshot (shape owned by rewards), or null when unchanged. */
  leaderboards: z.unknown().nullable(),
  /** The highest mutation id of client_id the server has applied (0 when unknown). */
  last_mutation_id: z.number().int(),
  // The `own` entities (sync/entities/define-entity.ts, PullRule): each one's rows under its client
  // store's name, and the ids gone under `deleted_<store>` (server/sync/own-rows.ts builds them all).
  /** The caller's notifications that changed (a reset: the newest NOTIFICATIONS_WINDOW, replacing the list). */
  notifications: z.array(NotificationItemSchema),
  deleted_notifications: z.array(z.string()),
  /** The caller's follows that changed (a reset: all of them, replacing the device's). */
  follows: z.array(FollowItemSchema),
  deleted_follows: z.array(z.string()),
  /** The caller's blocks and mutes that changed (a reset: all of them, replacing the device's). */
  blocks: z.array(BlockItemSchema),
  deleted_blocks: z.array(z.string()),
  mutes: z.array(MuteItemSchema),
  deleted_mutes: z.array(z.string()),
  /**
   * Given when the request asked for a window page (a snapshot with `window_page`, or `window_after`):
   * the feed cursor below this page's videos, or null when the feed has no more.
   */
  window_next: z.string().nullable().optional(),
});
export type PullResponse = z.infer<typeof PullResponseSchema>;

/**
 * A poke may carry the pull answer itself, so the client can skip the round trip: the rows that
 * changed from change-log seq `from` (exclusive) to `cursor` (inclusive), read the way a pull with
 * cursor `from`, no open comment lists and `client_id` would read them. Never a snapshot.
 */
export const PokeDeltaSchema = PullResponseSchema.extend({
  reset: z.literal(false),
  from: z.string(),
  /** The client id `last_mutation_id` is about (given when the stream was opened), or null. */
  client_id: z.string().nullable(),
});
export type PokeDelta = z.infer<typeof PokeDeltaSchema>;

/** What the events stream sends: a poke; with a delta the client may apply it instead of pulling. */
export const PokeMessageSchema = z.object({ type: z.literal('pull'), scopes: z.array(z.string()), delta: PokeDeltaSchema.optional() });
export type PokeMessage = z.infer<typeof PokeMessageSchema>;
