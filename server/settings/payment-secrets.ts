import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { Logger } from '../logger';
import { paymentSetting, type PaymentValue } from './definitions';
import type { SecretBox } from './secret-box';
import { readSetting, writeSetting } from './store';

type Db = Kysely<Database> | Transaction<Database>;

const SECRET_FIELDS = ['razorpay_key_secret', 'razorpay_webhook_secret'] as const;

/**
 * The payment setting with its secrets in plain text, for the server's own use (orders, signature
 * checks). Always read it through here: the row holds them encrypted. A secret that cannot be
 * decrypted (SECRETS_KEY or secrets.key changed) reads as unset, so payments answer "Payment not
 * configured" until an admin enters it again, instead of failing with a 500.
 */
export async function readPaymentSetting(db: Db, box: SecretBox): Promise<PaymentValue> {
  const stored = await readSetting(db, paymentSetting);
  const out = { ...stored };
  for (const f of SECRET_FIELDS) out[f] = box.open(f, stored[f]) ?? '';
  return out;
}

export async function writePaymentSetting(trx: Db, box: SecretBox, value: PaymentValue, now: number): Promise<void> {
  const sealed = { ...value };
  for (const f of SECRET_FIELDS) sealed[f] = box.seal(f, value[f]);
  await writeSetting(trx, paymentSetting, sealed, now);
}

/**
 * At start-up: rows written before secrets were encrypted are encrypted now, and a secret the key
 * cannot open is reported (it reads as unset until an admin enters it again).
 */
export async function sealStoredSecrets(db: Kysely<Database>, box: SecretBox, now: number, log: Logger): Promise<void> {
  const stored = await readSetting(db, paymentSetting);
  const plain = SECRET_FIELDS.filter((f) => stored[f] !== '' && !box.isSealed(stored[f]));
  const unreadable = SECRET_FIELDS.filter((f) => box.isSealed(stored[f]) && box.open(f, stored[f]) === null);
  for (const f of unreadable)
    log.error(`settings: ${f} cannot be decrypted with this SECRETS_KEY / secrets.key; payments treat it as unset until an admin enters it again`);
  if (!plain.length) return;
  // Only the plain-text fields change: a sealed one that this key cannot open is kept as it is (the right key may come back).
  const sealed = { ...stored };
  for (const f of plain) sealed[f] = box.seal(f, stored[f]);
  await writeSetting(db, paymentSetting, sealed, now);
  log.info(`settings: encrypted ${plain.join(', ')} at rest`);
}
