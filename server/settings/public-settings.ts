import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { PublicSettings } from '#sync/rest-api/settings';
import { adsSetting, distributionDateSetting, entryFeeSetting, paymentSetting } from './definitions';
import { readSetting } from './store';

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
