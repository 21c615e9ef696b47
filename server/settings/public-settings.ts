import type { Kysely, Transaction } from 'kysely';
import { z } from '@hono/zod-openapi';
import type { Database } from '../../db/schema';
import { adsSetting, distributionDateSetting, entryFeeSetting, PAYMENT_PROVIDERS, paymentSetting } from './definitions';
import { readSetting } from './store';

export const PublicSettingsSchema = z
  .object({
    entry_fee: z.object({ enabled: z.boolean(), amount: z.number().int() }),
    payment_provider: z.enum(PAYMENT_PROVIDERS),
    ads: z.object({ client_id: z.string(), slot_id: z.string() }),
    distribution_date: z.string().nullable(),
  })
  .openapi('PublicSettings');
export type PublicSettings = z.infer<typeof PublicSettingsSchema>;

/** What any visitor may know: no key ids, no secrets. */
export async function readPublicSettings(db: Kysely<Database> | Transaction<Database>): Promise<PublicSettings> {
  const [fee, payment, ads, date] = await Promise.all([
    readSetting(db, entryFeeSetting),
    readSetting(db, paymentSetting),
    readSetting(db, adsSetting),
    readSetting(db, distributionDateSetting),
  ]);
  return {
    entry_fee: { enabled: fee.enabled, amount: fee.amount_rupees },
    payment_provider: payment.provider,
    ads: { client_id: ads.client_id, slot_id: ads.slot_id },
    distribution_date: date,
  };
}
