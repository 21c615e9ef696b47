import { z } from 'zod';
import { ENTRY_FEE_KEY } from './entry-fee';
import type { SettingDef } from './store';

/** Whole rupees, never negative (spec section 5: the fee is parsed as an integer). */
export const Rupees = z.number().int().min(0).max(10_000_000);

export const EntryFeeValue = z.object({ enabled: z.boolean(), amount_rupees: Rupees });
export type EntryFeeValue = z.infer<typeof EntryFeeValue>;
export const entryFeeSetting: SettingDef<EntryFeeValue> = {
  key: ENTRY_FEE_KEY,
  schema: EntryFeeValue,
  defaults: { enabled: false, amount_rupees: 0 },
};

export const PAYMENT_PROVIDERS = ['razorpay', 'sandbox'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** The secrets are stored here and never leave the server (decisions.md "Security"). */
export const PaymentValue = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  razorpay_key_id: z.string(),
  razorpay_key_secret: z.string(),
  razorpay_webhook_secret: z.string(),
});
export type PaymentValue = z.infer<typeof PaymentValue>;
export const paymentSetting: SettingDef<PaymentValue> = {
  key: 'payment',
  schema: PaymentValue,
  // Razorpay without keys by default: nothing can be charged, or skipped, until an admin configures it.
  defaults: { provider: 'razorpay', razorpay_key_id: '', razorpay_key_secret: '', razorpay_webhook_secret: '' },
};

/** Ad ids end up in a script URL and attributes: letters, digits, dash and underscore only. */
export const AdId = z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, 'Only letters, digits, "-" and "_" are allowed.');
export const AdsValue = z.object({ client_id: AdId, slot_id: AdId });
export type AdsValue = z.infer<typeof AdsValue>;
export const adsSetting: SettingDef<AdsValue> = { key: 'ads', schema: AdsValue, defaults: { client_id: '', slot_id: '' } };

/** A calendar date YYYY-MM-DD that really exists (2026-02-30 is refused). */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD.').refine((s) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}, 'Not a real calendar date.');
export const DistributionDateValue = IsoDate.nullable();
export const distributionDateSetting: SettingDef<string | null> = { key: 'distribution_date', schema: DistributionDateValue, defaults: null };

/** Razorpay needs a key id and secret to create and verify orders; the sandbox needs nothing. */
export function providerConfigured(p: PaymentValue): boolean {
  if (p.provider === 'sandbox') return true;
  return p.razorpay_key_id.length > 0 && p.razorpay_key_secret.length > 0;
}
