import * as z from 'zod';

// The settings values the API shows and accepts, shared by the server (storage, validation, OpenAPI)
// and the client (types). Secrets have no schema here: they never leave the server.

/** Whole rupees, never negative (the admin form takes the fee as a whole number). */
export const Rupees = z.number().int().min(0).max(10_000_000);

export const EntryFeeValue = z.object({ enabled: z.boolean(), amount_rupees: Rupees });
export type EntryFeeValue = z.infer<typeof EntryFeeValue>;

export const PAYMENT_PROVIDERS = ['razorpay', 'sandbox'] as const;
export const PaymentProvider = z.enum(PAYMENT_PROVIDERS);
export type PaymentProvider = z.infer<typeof PaymentProvider>;

/** Ad ids end up in a script URL and attributes: letters, digits, dash and underscore only. */
export const AdId = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_-]*$/, 'Only letters, digits, "-" and "_" are allowed.');
export const AdsValue = z.object({ client_id: AdId, slot_id: AdId });
export type AdsValue = z.infer<typeof AdsValue>;

/** A calendar date YYYY-MM-DD that really exists (2026-02-30 is refused). */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD.')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Not a real calendar date.');

/** As in the product (docs/decisions/0009-scoring-rules.md): 20 best-user and 3 best-viewer prize slots, in rupees, default 0. */
export const PRIZE_SLOTS = { best_user: 20, best_viewer: 3 } as const;

/** GET /api/settings/public: what any visitor may know (no key ids, no secrets). */
export const PublicSettings = z
  .object({
    entry_fee: z.object({ enabled: z.boolean(), amount: z.number().int() }),
    payment_provider: PaymentProvider,
    ads: z.object({ client_id: z.string(), slot_id: z.string() }),
    distribution_date: z.string().nullable(),
  })
  .meta({ id: 'PublicSettings' });
export type PublicSettings = z.infer<typeof PublicSettings>;

/**
 * The abuse and prize limits administrators can change (docs/decisions/0003-abuse-limits.md): the most viewer points one member
 * earns in a UTC day, and the upload volume one member may send in a day.
 */
export const LimitsValue = z.object({
  viewer_daily_points_cap: z.number().int().min(1).max(100_000),
  upload_daily_mib: z.number().int().min(1).max(1_048_576),
});
export type LimitsValue = z.infer<typeof LimitsValue>;
export const DEFAULT_LIMITS: LimitsValue = { viewer_daily_points_cap: 200, upload_daily_mib: 2048 };
