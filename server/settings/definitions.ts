import { z } from 'zod';
import { AdsValue, DEFAULT_LIMITS, EntryFeeValue, IsoDate, LimitsValue, PaymentProvider } from '#sync/rest-api/settings';
import { ENTRY_FEE_KEY } from './entry-fee';
import type { SettingDef } from './store';

export const entryFeeSetting: SettingDef<EntryFeeValue> = {
  key: ENTRY_FEE_KEY,
  schema: EntryFeeValue,
  defaults: { enabled: false, amount_rupees: 0 },
};

/** The secrets are stored here and never leave the server (docs/decisions/0004-secrets-at-rest-and-server-hardening.md). */
export const PaymentValue = z.object({
  provider: PaymentProvider,
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

export const adsSetting: SettingDef<AdsValue> = { key: 'ads', schema: AdsValue, defaults: { client_id: '', slot_id: '' } };

export const DistributionDateValue = IsoDate.nullable();
export const distributionDateSetting: SettingDef<string | null> = { key: 'distribution_date', schema: DistributionDateValue, defaults: null };

/** Razorpay needs a key id and secret to create and verify orders; the sandbox needs nothing. */
export function providerConfigured(p: PaymentValue): boolean {
  if (p.provider === 'sandbox') return true;
  return p.razorpay_key_id.length > 0 && p.razorpay_key_secret.length > 0;
}

/** Viewer points per member per UTC day, and upload MiB per member per day (admin Settings tab). */
export const limitsSetting: SettingDef<LimitsValue> = { key: 'limits', schema: LimitsValue, defaults: DEFAULT_LIMITS };
