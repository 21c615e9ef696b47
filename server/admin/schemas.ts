import { z } from '@hono/zod-openapi';
import { AdsValue, EntryFeeValue, IsoDate, PAYMENT_PROVIDERS, Rupees } from '../settings/definitions';
import { PRIZE_SLOTS } from '../settings/prizes';

export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not an id.')
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ param: { name: 'limit', in: 'query' } }),
  cursor: z.string().max(200).optional().openapi({ param: { name: 'cursor', in: 'query' } }),
});

export const UserPageQuery = PageQuery.extend({
  q: z.string().trim().max(100).default('').openapi({ param: { name: 'q', in: 'query' }, description: 'Part of a name or e-mail.' }),
});

export const StatsSchema = z
  .object({ total_users: z.number().int(), total_videos: z.number().int(), active_users: z.number().int(), revenue_rupees: z.number().int() })
  .openapi('AdminStats');

export const AdminUserSchema = z
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
  .openapi('AdminUser');
export const UserPageSchema = z.object({ items: z.array(AdminUserSchema), next_cursor: z.string().nullable() }).openapi('AdminUserPage');

export const AdminVideoSchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    user_name: z.string(),
    title: z.string(),
    description: z.string(),
    video_url: z.string(),
    poster_url: z.string().nullable(),
    mime_type: z.string(),
    size_bytes: z.number().int(),
    duration_ms: z.number().int(),
    created_at: z.number().int(),
    likes_count: z.number().int(),
    comments_count: z.number().int(),
    shares_count: z.number().int(),
    views_count: z.number().int(),
  })
  .openapi('AdminVideo');
export const VideoPageSchema = z.object({ items: z.array(AdminVideoSchema), next_cursor: z.string().nullable() }).openapi('AdminVideoPage');

export const RewardsSettingsSchema = z
  .strictObject({
    best_user_prizes: z.array(Rupees).length(PRIZE_SLOTS.best_user, `Exactly ${PRIZE_SLOTS.best_user} best-user prizes are needed.`),
    best_viewer_prizes: z.array(Rupees).length(PRIZE_SLOTS.best_viewer, `Exactly ${PRIZE_SLOTS.best_viewer} best-viewer prizes are needed.`),
    distribution_date: IsoDate.nullable(),
  })
  .openapi('AdminRewardsSettings');

export const AdminSettingsViewSchema = z
  .object({
    entry_fee: EntryFeeValue,
    payment: z.object({
      provider: z.enum(PAYMENT_PROVIDERS),
      razorpay_key_id: z.string(),
      razorpay_key_secret_set: z.boolean(),
      razorpay_webhook_secret_set: z.boolean(),
    }),
    ads: AdsValue,
  })
  .openapi('AdminSettings');

const Secret = z
  .string()
  .trim()
  .min(1, 'Leave the field out to keep the secret, or send null to clear it.')
  .max(200)
  .nullable()
  .optional()
  .openapi({ description: 'Omitted: unchanged. null: cleared. A string: replaced.' });

export const AdminSettingsUpdateSchema = z
  .strictObject({
    entry_fee: z.strictObject({ enabled: z.boolean(), amount_rupees: Rupees }),
    payment: z.strictObject({
      provider: z.enum(PAYMENT_PROVIDERS),
      razorpay_key_id: z.string().trim().max(100).regex(/^[A-Za-z0-9_]*$/, 'A Razorpay key id has only letters, digits and "_".'),
      razorpay_key_secret: Secret,
      razorpay_webhook_secret: Secret,
    }),
    ads: z.strictObject({ client_id: AdsValue.shape.client_id, slot_id: AdsValue.shape.slot_id }),
  })
  .openapi('AdminSettingsUpdate');

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    actor_id: z.string(),
    actor_name: z.string().nullable(),
    action: z.string(),
    target: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.number().int(),
  })
  .openapi('AuditEntry');
export const AuditPageSchema = z.object({ items: z.array(AuditEntrySchema), next_cursor: z.string().nullable() }).openapi('AuditPage');

export const OkSchema = z.object({ ok: z.literal(true) });
