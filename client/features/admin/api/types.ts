// Shapes of the /api/admin answers (server/admin/schemas.ts documents them in the OpenAPI doc).

export interface AdminStats {
  total_users: number;
  total_videos: number;
  active_users: number;
  revenue_rupees: number;
}

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  is_admin: boolean;
  is_active: boolean;
  account_status: string;
  email_verified: boolean;
  created_at: number;
}

export interface AdminVideo {
  id: string;
  user_id: string;
  user_name: string;
  title: string;
  description: string;
  video_url: string;
  poster_url: string | null;
  mime_type: string;
  size_bytes: number;
  duration_ms: number;
  created_at: number;
  likes_count: number;
  comments_count: number;
  shares_count: number;
  views_count: number;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface RewardsSettings {
  best_user_prizes: number[];
  best_viewer_prizes: number[];
  distribution_date: string | null;
}

export type PaymentProvider = 'razorpay' | 'sandbox';

export interface AdminSettings {
  entry_fee: { enabled: boolean; amount_rupees: number };
  payment: { provider: PaymentProvider; razorpay_key_id: string; razorpay_key_secret_set: boolean; razorpay_webhook_secret_set: boolean };
  ads: { client_id: string; slot_id: string };
}

/** A secret: left out = unchanged, null = cleared, a string = replaced. */
export type SecretChange = string | null | undefined;

export interface AdminSettingsUpdate {
  entry_fee: { enabled: boolean; amount_rupees: number };
  payment: { provider: PaymentProvider; razorpay_key_id: string; razorpay_key_secret?: string | null; razorpay_webhook_secret?: string | null };
  ads: { client_id: string; slot_id: string };
}

export interface AuditEntry {
  id: number;
  actor_id: string;
  actor_name: string | null;
  action: string;
  target: string | null;
  details: Record<string, unknown> | null;
  created_at: number;
}
