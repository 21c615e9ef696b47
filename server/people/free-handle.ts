import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { handleFromName, numberedHandle } from '#sync/protocol/handles';

/**
 * A handle nobody has yet for a new member, from their name (docs/data-model.md, "People"): the
 * plain one if free, else the lowest number after it. One indexed read of the handles that start
 * alike; the unique index still decides if two sign-ups race (the loser's insert fails and is retried).
 */
export async function freeHandle(db: Kysely<Database> | Transaction<Database>, name: string): Promise<string> {
  const base = handleFromName(name);
  const taken = new Set(
    (await db.selectFrom('profiles').select('handle').where('handle', '>=', base).where('handle', '<', `${base}\u{ffff}`).execute()).map((r) => r.handle),
  );
  let n = 1;
  while (taken.has(numberedHandle(base, n))) n++;
  return numberedHandle(base, n);
}
