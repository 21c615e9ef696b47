import type { Generated } from 'kysely';

// Settings, payments, sync, the audit trail, the processing queue and shared rate limits.
// Times are integer milliseconds since the epoch; booleans are 0/1 integers (db/schema.ts).

export interface SettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: number;
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
  /** 'video' | 'comment' | 'like' | 'profile' | 'leaderboard' | 'settings' | 'notification' */
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
  /** The video's owner (null only for a job whose video was gone when migration 0012 ran). */
  user_id: string | null;
  /** 'transcode' */
  kind: string;
  /** 'queued' | 'running' | 'done' | 'failed' */
  state: string;
  attempts: number;
  /** Not before this time (ms): the backoff between tries. */
  run_at: number;
  /** A running job's lease; past it, another worker may claim the job. */
  lease_until: number;
  /** The queue's order: created_at plus a slot per job of the same member pending before it (queue.ts). */
  fair_at: Generated<number>;
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
