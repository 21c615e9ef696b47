import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { adsSetting, entryFeeSetting, limitsSetting, providerConfigured, type PaymentValue } from '../settings/definitions';
import type { AdminSettings, AdminSettingsUpdate } from '#sync/rest-api/admin';
import { readSetting, writeSetting } from '../settings/store';
import { readPaymentSetting, writePaymentSetting } from '../settings/payment-secrets';
import type { SecretBox } from '../settings/secret-box';
import { badRequest } from '../http/errors';

export async function readAdminSettings(db: Kysely<Database> | Transaction<Database>, secrets: SecretBox): Promise<AdminSettings> {
  const [fee, payment, ads, limits] = await Promise.all([
    readSetting(db, entryFeeSetting),
    readPaymentSetting(db, secrets),
    readSetting(db, adsSetting),
    readSetting(db, limitsSetting),
  ]);
  return {
    entry_fee: fee,
    payment: {
      provider: payment.provider,
      razorpay_key_id: payment.razorpay_key_id,
      razorpay_key_secret_set: payment.razorpay_key_secret.length > 0,
      razorpay_webhook_secret_set: payment.razorpay_webhook_secret.length > 0,
    },
    ads,
    limits,
  };
}

const merge = (current: string, next: string | null | undefined) => (next === undefined ? current : (next ?? ''));

/**
 * Validates the combination and writes the settings; returns which secrets changed (for the
 * audit, never their values) and whether the viewer points cap changed (the boards then move). A secret that is omitted stays as it is; null clears it; a string
 * replaces it, so the form never needs to know a secret to save the other fields.
 */
export async function saveAdminSettings(trx: Transaction<Database>, secrets: SecretBox, update: AdminSettingsUpdate, now: number) {
  const current = await readPaymentSetting(trx, secrets);
  const payment: PaymentValue = {
    provider: update.payment.provider,
    razorpay_key_id: update.payment.razorpay_key_id.trim(),
    razorpay_key_secret: merge(current.razorpay_key_secret, update.payment.razorpay_key_secret),
    razorpay_webhook_secret: merge(current.razorpay_webhook_secret, update.payment.razorpay_webhook_secret),
  };
  if (update.entry_fee.enabled && update.entry_fee.amount_rupees > 0 && !providerConfigured(payment)) {
    throw badRequest(
      'The entry fee cannot be enabled while Razorpay has no key id and key secret. Add both keys, or choose the sandbox provider.',
      'payment_not_configured',
    );
  }
  await writeSetting(trx, entryFeeSetting, update.entry_fee, now);
  // Encrypted at rest (settings/secret-box.ts).
  await writePaymentSetting(trx, secrets, payment, now);
  await writeSetting(trx, adsSetting, update.ads, now);
  // Limits left out of the body stay as they are (older clients save the tab without them).
  const limitsBefore = await readSetting(trx, limitsSetting);
  if (update.limits) await writeSetting(trx, limitsSetting, update.limits, now);
  return {
    capChanged: !!update.limits && update.limits.viewer_daily_points_cap !== limitsBefore.viewer_daily_points_cap,
    secretsChanged: {
      razorpay_key_secret: payment.razorpay_key_secret !== current.razorpay_key_secret,
      razorpay_webhook_secret: payment.razorpay_webhook_secret !== current.razorpay_webhook_secret,
    },
  };
}
