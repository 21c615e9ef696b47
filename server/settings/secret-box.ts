import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Provider secrets (the Razorpay key secret and webhook secret) are stored encrypted with
// AES-256-GCM under a key that never enters the database: SECRETS_KEY, or DATA_DIR/secrets.key
// generated (0600) on first start. A copy of the database alone (a backup, a leaked file) then
// holds no usable secret. docs/decisions/0004-secrets-at-rest-and-server-hardening.md.

/** Stored form: `enc:v1:<iv>.<tag>.<ciphertext>` (base64url). Anything else is a plain-text row from before. */
const PREFIX = 'enc:v1:';
const KEY_FILE = 'secrets.key';

export interface SecretBox {
  /** Encrypts `plain` for the field `name` (the name is authenticated: a value cannot be moved to another field). */
  seal(name: string, plain: string): string;
  /** The plain text; a plain-text row is returned as it is; null when it cannot be decrypted (another key). */
  open(name: string, stored: string): string | null;
  isSealed(stored: string): boolean;
}

const b64 = (b: Buffer) => b.toString('base64url');

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secrets key must be 32 bytes.');
  return {
    seal(name, plain) {
      // An empty secret means "not set": there is nothing to hide, and it must read as unset.
      if (plain === '') return '';
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(name));
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${b64(iv)}.${b64(cipher.getAuthTag())}.${b64(ct)}`;
    },
    open(name, stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const [iv, tag, ct] = stored.slice(PREFIX.length).split('.');
      if (iv === undefined || tag === undefined || ct === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(name));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
    isSealed: (stored) => stored.startsWith(PREFIX),
  };
}

/** SECRETS_KEY when configured, else DATA_DIR/secrets.key, created 0600 on first start. */
export function loadSecretBox(dataDir: string, configured: Buffer | undefined): SecretBox {
  if (configured) return createSecretBox(configured);
  const file = join(dataDir, KEY_FILE);
  if (!existsSync(file)) {
    try {
      // 'wx': two processes starting at once cannot overwrite each other's key.
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key in base64; restore it from a backup or set SECRETS_KEY.`);
  return createSecretBox(key);
}
