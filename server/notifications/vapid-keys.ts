import webpush from 'web-push';
import * as z from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { SecretBox } from '../settings/secret-box';

// The VAPID key pair (RFC 8292) the push services know this server by. Made on first start and kept
// in the `settings` table, so every instance of one database signs with the same pair; the private
// key is sealed like the payment secrets (server/settings/secret-box.ts) and never leaves the server.

const KEY = 'push_vapid';
const Stored = z.object({ public_key: z.string().min(1), private_key: z.string().min(1) });

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The pair, made if there is none yet. Two instances starting at once both insert-if-absent: one
 * row wins and both read it back. A private key this SECRETS_KEY cannot open is an error (replacing
 * the pair would silently cut off every subscribed device).
 */
export async function loadVapidKeys(db: Kysely<Database>, box: SecretBox, now: number): Promise<VapidKeys> {
  const fresh = webpush.generateVAPIDKeys();
  const value = JSON.stringify({ public_key: fresh.publicKey, private_key: box.seal(KEY, fresh.privateKey) });
  await db
    .insertInto('settings')
    .values({ key: KEY, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirstOrThrow();
  const stored = Stored.parse(JSON.parse(row.value));
  const privateKey = box.open(KEY, stored.private_key);
  if (!privateKey) throw new Error('The Web Push private key cannot be decrypted with this SECRETS_KEY / secrets.key.');
  return { publicKey: stored.public_key, privateKey };
}

/** The contact push services may write to: MAIL_FROM's address, else PUBLIC_URL (web-push accepts mailto: or https:). */
export function vapidSubject(mailFrom: string, publicUrl: string): string {
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? (/^[^<>\s]+@[^<>\s]+$/.test(mailFrom.trim()) ? mailFrom.trim() : undefined);
  if (address) return `mailto:${address}`;
  return publicUrl.startsWith('https://') ? publicUrl : 'mailto:no-reply@vidi.local';
}

/** Loaded once per database handle: the routes and the sender of one process share it. */
const cache = new WeakMap<Kysely<Database>, Promise<VapidKeys>>();

export function vapidKeysOf(db: Kysely<Database>, box: SecretBox, now: () => number): Promise<VapidKeys> {
  let keys = cache.get(db);
  if (!keys) {
    keys = loadVapidKeys(db, box, now());
    // A failed load (database down) is tried again by the next caller.
    keys.catch(() => cache.delete(db));
    cache.set(db, keys);
  }
  return keys;
}
