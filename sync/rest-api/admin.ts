import * as z from 'zod';
import { FeedItemSchema } from '../protocol/messages';
import { AdsValue, EntryFeeValue, IsoDate, LimitsValue, PaymentProvider, PRIZE_SLOTS, Rupees } from './settings';

// The /api/admin bodies and answers, shared by the server (validation, OpenAPI) and the admin screens.

/** A keyset page, newest first; next_cursor is null on the last page. */
const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });
export type Page<T> = z.infer<ReturnType<typeof pageOf<z.ZodType<T>>>>;

export const AdminStats = z
  .object({
    total_users: z.number().int(),
    total_videos: z.number().int(),
    active_users: z.number().int(),
    /** docs/decisions/0007-entry-fee-razorpay-and-sandbox.md: the sum of captured payments (real ones, not sandbox), not users x fee. */
    revenue_rupees: z.number().int(),
    /** Reported targets waiting in the moderation queue (GET /api/admin/reports). */
    open_reports: z.number().int(),
  })
  .meta({ id: 'AdminStats' });
export type AdminStats = z.infer<typeof AdminStats>;

export const AdminUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    is_admin: z.boolean(),
    is_active: z.boolean(),
    account_status: z.string(),
    email_verified: z.boolean(),
    created_at: z.number().int(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUserPage = pageOf(AdminUser).meta({ id: 'AdminUserPage' });
export type AdminUserPage = z.infer<typeof AdminUserPage>;

/** A video as the admin list shows it: the feed's fields (times in ms) plus what the file is. */
export const AdminVideo = FeedItemSchema.pick({
  id: true,
  user_id: true,
  user_name: true,
  title: true,
  description: true,
  video_url: true,
  poster_url: true,
  media_status: true,
  media_error: true,
})
  .extend({
    mime_type: z.string(),
    size_bytes: z.number().int(),
    duration_ms: z.number().int(),
    created_at: z.number().int(),
    likes_count: z.number().int(),
    comments_count: z.number().int(),
    shares_count: z.number().int(),
    views_count: z.number().int(),
  })
  .meta({ id: 'AdminVideo' });
export type AdminVideo = z.infer<typeof AdminVideo>;
export const AdminVideoPage = pageOf(AdminVideo).meta({ id: 'AdminVideoPage' });
export type AdminVideoPage = z.infer<typeof AdminVideoPage>;

/** GET and PUT /api/admin/rewards: the body of the PUT is also its answer. */
export const RewardsSettings = z
  .strictObject({
    best_user_prizes: z.array(Rupees).length(PRIZE_SLOTS.best_user, `Exactly ${PRIZE_SLOTS.best_user} best-user prizes are needed.`),
    best_viewer_prizes: z.array(Rupees).length(PRIZE_SLOTS.best_viewer, `Exactly ${PRIZE_SLOTS.best_viewer} best-viewer prizes are needed.`),
    distribution_date: IsoDate.nullable(),
  })
  .meta({ id: 'AdminRewardsSettings' });
export type RewardsSettings = z.infer<typeof RewardsSettings>;

/** What an admin sees: the secrets only as "set" or "not set" (docs/decisions/0004-secrets-at-rest-and-server-hardening.md). */
export const AdminSettings = z
  .object({
    entry_fee: EntryFeeValue,
    payment: z.object({
      provider: PaymentProvider,
      razorpay_key_id: z.string(),
      razorpay_key_secret_set: z.boolean(),
      razorpay_webhook_secret_set: z.boolean(),
    }),
    ads: AdsValue,
    /**
     * Viewer points per member per UTC day, upload MiB per member per day
     * (docs/decisions/0001-prizes-that-cannot-be-farmed.md, docs/decisions/0003-abuse-limits.md).
     */
    limits: LimitsValue,
  })
  .meta({ id: 'AdminSettings' });
export type AdminSettings = z.infer<typeof AdminSettings>;

const Secret = z
  .string()
  .trim()
  .min(1, 'Leave the field out to keep the secret, or send null to clear it.')
  .max(200)
  .nullable()
  .optional()
  .meta({ description: 'Omitted: unchanged. null: cleared. A string: replaced.' });

/**
 * A save of the whole Settings tab. A secret that is omitted stays as it is; null clears it; a
 * string replaces it. That way the form never needs to know a secret to save the other fields.
 */
export const AdminSettingsUpdate = z
  .strictObject({
    entry_fee: z.strictObject({ enabled: z.boolean(), amount_rupees: Rupees }),
    payment: z.strictObject({
      provider: PaymentProvider,
      razorpay_key_id: z
        .string()
        .trim()
        .max(100)
        .regex(/^[A-Za-z0-9_]*$/, 'A Razorpay key id has only letters, digits and "_".'),
      razorpay_key_secret: Secret,
      razorpay_webhook_secret: Secret,
    }),
    ads: z.strictObject({ client_id: AdsValue.shape.client_id, slot_id: AdsValue.shape.slot_id }),
    limits: z
      .strictObject({ viewer_daily_points_cap: LimitsValue.shape.viewer_daily_points_cap, upload_daily_mib: LimitsValue.shape.upload_daily_mib })
      .optional()
      .meta({ description: 'Omitted: unchanged.' }),
  })
  .meta({ id: 'AdminSettingsUpdate' });
export type AdminSettingsUpdate = z.infer<typeof AdminSettingsUpdate>;

export const AuditEntry = z
  .object({
    id: z.number().int(),
    actor_id: z.string(),
    actor_name: z.string().nullable(),
    action: z.string(),
    target: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.number().int(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = pageOf(AuditEntry).meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof AuditPage>;

export const Ok = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof Ok>;

/** GET /api/admin/rewards/breakdown: each leader's points of the current period by source. */
export const RewardsBreakdownEntry = z
  .object({
    user_id: z.string(),
    user_name: z.string(),
    creator: z.object({ rank: z.number().int().nullable(), points: z.number().int(), likes_received: z.number().int(), commenters: z.number().int() }),
    viewer: z.object({
      rank: z.number().int().nullable(),
      points: z.number().int(),
      likes_given: z.number().int(),
      comments_given: z.number().int(),
      views: z.number().int(),
      /** Viewer actions that counted but earned no point: over the daily cap. */
      capped: z.number().int(),
    }),
  })
  .meta({ id: 'RewardsBreakdownEntry' });
export type RewardsBreakdownEntry = z.infer<typeof RewardsBreakdownEntry>;
export const RewardsBreakdown = z
  .object({
    period_start: z.number().int(),
    viewer_daily_points_cap: z.number().int(),
    leaders: z.array(RewardsBreakdownEntry),
    voided: z.array(z.object({ user_id: z.string(), user_name: z.string(), created_at: z.number().int() })),
  })
  .meta({ id: 'RewardsBreakdown' });
export type RewardsBreakdown = z.infer<typeof RewardsBreakdown>;

/** POST /api/admin/rewards/voids: take a member out of the current period's scoring. */
export const VoidRequest = z
  .strictObject({
    user_id: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, 'Not a user id.'),
  })
  .meta({ id: 'RewardsVoidRequest' });
export type VoidRequest = z.infer<typeof VoidRequest>;
export const VoidResult = z.object({ user_id: z.string(), period_start: z.number().int(), created: z.boolean() }).meta({ id: 'RewardsVoidResult' });
export type VoidResult = z.infer<typeof VoidResult>;
