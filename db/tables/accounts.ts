import type { Generated } from 'kysely';
// Accounts: profiles, their passwords, sessions and e-mail links.
// Times are integer milliseconds since the epoch; booleans are 0/1 integers (db/schema.ts).

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
  /** Lower case, unique; every member has one (db/migrations/0014_people.ts). */
  handle: string;
  followers_count: Generated<number>;
  following_count: Generated<number>;
}

/** One member following another (db/migrations/0014_people.ts). */
export interface FollowsTable {
  follower_id: string;
  followee_id: string;
  created_at: number;
}

/** A member who blocked another: either way, neither sees the other (docs/decisions/0024-safety.md). */
export interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: number;
}

/** A member who muted another: the muter alone stops seeing them. */
export interface MutesTable {
  muter_id: string;
  muted_id: string;
  created_at: number;
}

/** One member's report of a video, a comment or a member. */
export interface ReportsTable {
  id: string;
  reporter_id: string;
  /** 'video' | 'comment' | 'member' */
  target_type: string;
  target_id: string;
  /** A code of REPORT_REASONS (sync/protocol/report-reasons.ts). */
  reason: string;
  note: string | null;
  /** 'open' | 'actioned' | 'dismissed' */
  state: Generated<string>;
  /** JSON: what was reported as it was (title or text, uploader, poster), kept through its deletion. */
  snapshot: string;
  created_at: number;
  resolved_at: number | null;
}

/** The moderation queue: one row per reported target while open (then its outcome). */
export interface ReportTargetsTable {
  id: string;
  target_type: string;
  target_id: string;
  state: string;
  reports_count: Generated<number>;
  snapshot: string;
  first_reported_at: number;
  last_reported_at: number;
  resolved_at: number | null;
  resolution_note: string | null;
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
