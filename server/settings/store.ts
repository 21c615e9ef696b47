import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '#db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * One typed setting in the key/value `settings` table. A missing row, or one that no longer matches
 * its schema (an older shape), reads as the default, so a bad row can never take the server down.
 */
export interface SettingDef<T> {
  key: string;
  schema: z.ZodType<T>;
  defaults: T;
}

export async function readSetting<T>(db: Db, def: SettingDef<T>): Promise<T> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', def.key).executeTakeFirst();
  if (!row) return def.defaults;
  let raw: unknown;
  try {
    raw = JSON.parse(row.value);
  } catch {
    return def.defaults;
  }
  const parsed = def.schema.safeParse(raw);
  return parsed.success ? parsed.data : def.defaults;
}

export async function writeSetting<T>(trx: Db, def: SettingDef<T>, value: T, now: number): Promise<void> {
  const json = JSON.stringify(def.schema.parse(value));
  await trx
    .insertInto('settings')
    .values({ key: def.key, value: json, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
    .execute();
}
