import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Times are integer milliseconds since the epoch: sortable, compact, and the same in every dialect.
// Booleans are 0/1 integers for the same reason.

export interface ProfilesTable {
  id: string;
  email: string;
  name: string;
  is_admin: number;
  is_active: number;
  /** 'active' | 'pending_payment' (the fee is paid before the account is usable: docs/decisions/0007-entry-fee-razorpay-and-sandbox.md). */
  account_status: string;
  email_verified_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface CredentialsTable {
  user_id: string;
  password_hash: string;
  updated_at: number;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  /** Every rotation of one sign-in shares a family; reuse of a spent token revokes the family. */
  family_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  replaced_by: string | null;
}

export interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface VideosTable {
  id: string;
  user_id: string;
  title: string;
  description: string;
  /** Path of the media file under DATA_DIR/media, e.g. {userId}/{timestamp}-{safe name}. */
  file_key: string;
  mime_type: string;
  size_bytes: number;
  duration_ms: number;
  sha256: string;
  poster_key: string | null;
  created_at: number;
  /** 'processing' | 'ready' | 'failed' (docs/media.md); defaults to 'ready' for rows inserted directly. */
  media_status: Generated<string>;
  /** Why processing failed, shown to the uploader and to admins. */
  media_error: string | null;
  /** 0-100 while processing. */
  media_progress: Generated<number>;
  /** The folder of the current outputs under DATA_DIR/media ({userId}/{videoId}/{jobId}), or null before the first. */
  media_key: string | null;
  captions_key: string | null;
  likes_count: number;
  comments_count: number;
  shares_count: number;
  views_count: number;
}

export interface UploadsTable {
  /** The tus upload id. */
  id: string;
  user_id: string;
  video_id: string;
  title: string;
  description: string;
  filename: string;
  filetype: string;
  size_bytes: number | null;
  /** 'uploading' | 'completed' | 'rejected' | 'expired' */
  status: string;
  reason: string | null;
  /** A poster sent before the video existed (migration 0002); moved to the video when it is created. */
  poster_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface LikesTable {
  video_id: string;
  user_id: string;
  created_at: number;
}

export interface CommentsTable {
  id: string;
  video_id: string;
  user_id: string;
  content: string;
  created_at: number;
}

export interface ViewsTable {
  video_id: string;
  user_id: string;
  watched_ms: number;
  created_at: number;
}

export interface SharesTable {
  id: string;
  video_id: string;
  user_id: string;
  created_at: number;
}

export interface SettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: number;
}

export interface PrizesTable {
  /** 'best_user' | 'best_viewer' */
  board: string;
  rank: number;
  amount_rupees: number;
}

export interface ScoresTable {
  user_id: string;
  creator_points: number;
  viewer_points: number;
  /** When the current points total was first reached: the tie-break ("earlier reach first"). */
  creator_reached_at: number;
  viewer_reached_at: number;
}

/** A member's counted viewer actions on one UTC day of the current period (the daily cap applies to these). */
export interface ViewerDaysTable {
  user_id: string;
  /** floor(created_at / 86 400 000): the UTC day. */
  day: number;
  actions: number;
}

/** A member's credited watch time (migration 0007, server/rewards/view-rules.ts). */
export interface ViewCreditsTable {
  user_id: string;
  /** Server time of their previous credited push of views. */
  credited_at: number;
  /** Where their credited watches, laid end to end, end (at most credited_at + the allowance). */
  credited_until: number;
}

/** A member an admin took out of one scoring period (migration 0007). */
export interface RewardVoidsTable {
  period_start: number;
  user_id: string;
  created_at: number;
  created_by: string;
}

export interface DistributionsTable {
  id: string;
  /** Start of the scoring period this distribution closes; unique, so a period is never distributed twice. */
  period_start: number;
  created_at: number;
  created_by: string;
}

export interface DistributionWinnersTable {
  distribution_id: string;
  board: string;
  rank: number;
  user_id: string;
  user_name: string;
  points: number;
  prize_rupees: number;
}

export interface PaymentsTable {
  id: string;
  user_id: string;
  provider: string;
  order_id: string;
  payment_id: string | null;
  amount_paise: number;
  currency: string;
  /** 'created' | 'captured' | 'failed' */
  status: string;
  created_at: number;
  captured_at: number | null;
}

export interface WebhookEventsTable {
  event_id: string;
  provider: string;
  event_type: string;
  received_at: number;
}

export interface SyncClientsTable {
  client_id: string;
  user_id: string;
  last_mutation_id: number;
  updated_at: number;
}

export interface ChangeLogTable {
  /** Monotonic version: the pull cursor. */
  seq: Generated<number>;
  /** 'video' | 'comment' | 'like' | 'profile' | 'leaderboard' */
  entity: string;
  entity_id: string;
  /** The video a comment or like belongs to, for scoped pulls. */
  video_id: string | null;
  /** The user a private row belongs to (own likes, own profile). */
  user_id: string | null;
  deleted: number;
  created_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: string;
  action: string;
  target: string | null;
  details: string | null;
  created_at: number;
}

/** The durable processing queue (docs/media.md, "The job runner"). */
export interface MediaJobsTable {
  id: string;
  video_id: string;
  /** 'transcode' */
  kind: string;
  /** 'queued' | 'running' | 'done' | 'failed' */
  state: string;
  attempts: number;
  /** Not before this time (ms): the backoff between tries. */
  run_at: number;
  /** A running job's lease; past it, another worker may claim the job. */
  lease_until: number;
  worker_id: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** Rate-limit windows and buckets shared by the instances of a PostgreSQL database (server/security/shared-limits.ts). */
export interface RateLimitsTable {
  /** Which limit: an AUTH_LIMIT_RULES name, or 'push'. */
  limiter: string;
  key: string;
  /** A window's start, or when a bucket was last levelled (ms). */
  started_at: number;
  /** Hits in the window, or tokens in the bucket. */
  level: number;
  /** 1 when the last take counted, 0 when it was refused. */
  counted: number;
  /** Past this (ms) the row may be deleted. */
  expires_at: number;
}

export interface Database {
  profiles: ProfilesTable;
  credentials: CredentialsTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  videos: VideosTable;
  uploads: UploadsTable;
  likes: LikesTable;
  comments: CommentsTable;
  views: ViewsTable;
  shares: SharesTable;
  settings: SettingsTable;
  prizes: PrizesTable;
  scores: ScoresTable;
  viewer_days: ViewerDaysTable;
  view_credits: ViewCreditsTable;
  reward_voids: RewardVoidsTable;
  distributions: DistributionsTable;
  distribution_winners: DistributionWinnersTable;
  payments: PaymentsTable;
  webhook_events: WebhookEventsTable;
  sync_clients: SyncClientsTable;
  change_log: ChangeLogTable;
  audit_log: AuditLogTable;
  media_jobs: MediaJobsTable;
  rate_limits: RateLimitsTable;
}

export type Profile = Selectable<ProfilesTable>;
export type NewProfile = Insertable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;
export type Video = Selectable<VideosTable>;
export type Comment = Selectable<CommentsTable>;
