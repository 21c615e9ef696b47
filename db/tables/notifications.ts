import type { Generated } from 'kysely';
// Notifications, push subscriptions and what each member wants pushed (docs/notifications.md).
// Times are integer milliseconds since the epoch; booleans are 0/1 integers (db/schema.ts).

export interface NotificationsTable {
  id: string;
  /** The member told. */
  user_id: string;
  /** NotificationKind (sync/protocol/notifications.ts). */
  kind: string;
  video_id: string | null;
  /** How many people (likes: grows while unread); 1 otherwise. */
  count: number;
  /** The last liker or the commenter. */
  actor_name: string | null;
  /** The commenter's id: one member's comments on a video claimed together are one push. */
  actor_id: string | null;
  /** The comment's opening words, the video's title, the prize category, the failure reason. */
  detail: string | null;
  amount_paise: number | null;
  rank: number | null;
  created_at: number;
  updated_at: number;
  read_at: number | null;
  /** When its push should be sent; null when none is pending. */
  push_due_at: number | null;
  /** The comment it quotes (a comment, a reply, a mention, a comment's likes): its deletion takes the notification. */
  comment_id: Generated<string | null>;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  /** The session (refresh-token family) that registered it; null when the token named none. */
  session_id: string | null;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
  updated_at: number;
}

export interface NotificationPrefsTable {
  user_id: string;
  likes: number;
  comments: number;
  processing: number;
  prizes: number;
  updated_at: number;
}
