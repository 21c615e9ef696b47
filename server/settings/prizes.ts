import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { PRIZE_SLOTS } from '#sync/rest-api/settings';

export interface Prizes {
  best_user: number[];
  best_viewer: number[];
}

/** Every slot, rank 1 first; ranks without a row are 0. */
export async function readPrizes(db: Kysely<Database> | Transaction<Database>): Promise<Prizes> {
  const rows = await db.selectFrom('prizes').select(['board', 'rank', 'amount_rupees']).execute();
  const out: Prizes = { best_user: Array<number>(PRIZE_SLOTS.best_user).fill(0), best_viewer: Array<number>(PRIZE_SLOTS.best_viewer).fill(0) };
  for (const r of rows) {
    if (r.board !== 'best_user' && r.board !== 'best_viewer') continue;
    const list = out[r.board];
    if (r.rank >= 1 && r.rank <= list.length) list[r.rank - 1] = Number(r.amount_rupees);
  }
  return out;
}

export async function writePrizes(trx: Transaction<Database>, prizes: Prizes): Promise<void> {
  const values = (['best_user', 'best_viewer'] as const).flatMap((board) => prizes[board].map((amount, i) => ({ board, rank: i + 1, amount_rupees: amount })));
  await trx
    .insertInto('prizes')
    .values(values)
    .onConflict((oc) => oc.columns(['board', 'rank']).doUpdateSet((eb) => ({ amount_rupees: eb.ref('excluded.amount_rupees') })))
    .execute();
}
