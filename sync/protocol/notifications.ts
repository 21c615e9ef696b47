import * as z from 'zod';

/** What a member can be told about; each kind maps to one choice in /profile (NOTIFICATION_PREF_OF). */
export const NOTIFICATION_KINDS = [
  'likes',
  'comment',
  'processed',
  'processing_failed',
  'prize',
  'follow',
  'reply',
  'mention',
  'comment_likes',
  'report_resolved',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The choices a member makes in /profile: which kinds are pushed to their devices. */
export const NOTIFICATION_PREFS = ['likes', 'comments', 'processing', 'prizes'] as const;
export type NotificationPref = (typeof NOTIFICATION_PREFS)[number];

export const NOTIFICATION_PREF_OF: Record<NotificationKind, NotificationPref> = {
  likes: 'likes',
  comment: 'comments',
  processed: 'processing',
  processing_failed: 'processing',
  prize: 'prizes',
  // A new follower is a reaction like a like: pushed under the same choice (docs/notifications.md).
  follow: 'likes',
  // A reply or a mention is someone's words to the member, as a comment on their video is.
  reply: 'comments',
  mention: 'comments',
  // The likes of one comment, batched like a video's.
  comment_likes: 'likes',
  // The outcome of the member's report: an answer to their own words, as a reply is.
  report_resolved: 'comments',
};

/** A notification as pull, the live stream and the push payload carry it. */
export const NotificationItemSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  video_id: z.string().nullable(),
  /** How many people (likes on one video, or on one comment, are one notification while it is unread). */
  count: z.number().int(),
  actor_name: z.string().nullable(),
  /** Who acted (the newest liker of a row of likes); null when nobody did (a prize, processing). The device purges a blocked or muted member's by it. */
  actor_id: z.string().nullable().optional(),
  /** The actor's handle as it is now (a follow links to their page, /@handle); null when they are gone or there is none. */
  actor_handle: z.string().nullable().optional(),
  /** The comment's opening words (a comment, reply, mention or comment's likes), the video's title, the prize category, the failure reason. */
  detail: z.string().nullable(),
  /** The comment it is about (a comment, reply, mention in a comment, comment's likes); null otherwise, and for a mention in a video's title or description. */
  comment_id: z.string().nullable().optional(),
  amount_paise: z.number().int().nullable(),
  rank: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  read: z.boolean(),
});
export type NotificationItem = z.infer<typeof NotificationItemSchema>;

/** The payload of a Web Push message (encrypted by web-push; decrypted by the service worker). */
export const PushPayloadSchema = z.object({
  notification: NotificationItemSchema,
  title: z.string(),
  body: z.string(),
  /** Where tapping it goes (same origin path). */
  url: z.string(),
  /** The member's unread count when it was sent: the app icon's badge. */
  unread: z.number().int(),
});
export type PushPayload = z.infer<typeof PushPayloadSchema>;
