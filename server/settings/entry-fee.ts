import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';

export interface EntryFee {
  enabled: boolean;
  /** Whole rupees. */
  amountRupees: number;
}

/** The settings row that holds the entry fee, as JSON {enabled, amount_rupees}. Default: off and 0 (docs/admin-payments.md). */
export const ENTRY_FEE_KEY = 'entry_fee';

export async function readEntryFee(db: Kysely<Database> | Transaction<Database>): Promise<EntryFee> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', ENTRY_FEE_KEY).executeTakeFirst();
  if (!row) return { enabled: false, amountRupees: 0 };
  const v = JSON.parse(row.value) as { enabled?: unknown; amount_rupees?: unknown };
  return { enabled: v.enabled === true, amountRupees: typeof v.amount_rupees === 'number' ? v.amount_rupees : 0 };
}

/** A fee applies at sign-up only when it is enabled and above 0 (docs/decisions/0007-entry-fee-razorpay-and-sandbox.md). */
export function feeApplies(fee: EntryFee): boolean {
  return fee.enabled && fee.amountRupees > 0;
}
