import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecretBox, loadSecretBox } from './secret-box';
import { loadConfig } from '../config';

describe('secret box', () => {
  const box = createSecretBox(randomBytes(32));

  it('round-trips, never stores the plain text, and uses a fresh IV each time', () => {
    const a = box.seal('razorpay_key_secret', 'very-secret');
    const b = box.seal('razorpay_key_secret', 'very-secret');
    expect(a).not.toContain('very-secret');
    expect(a).not.toBe(b);
    expect(box.open('razorpay_key_secret', a)).toBe('very-secret');
    expect(box.isSealed(a)).toBe(true);
  });

  it('refuses a value moved to another field, tampered with, or sealed under another key', () => {
    const sealed = box.seal('razorpay_key_secret', 'very-secret');
    expect(box.open('razorpay_webhook_secret', sealed)).toBeNull();
    // Flip a bit of the decoded ciphertext: swapping its last base64 letters could change only
    // the padding bits, which decode to the same bytes: "…BA" -> "…BB" kept the bytes, and CI
    // failed on it once (about 1 run in 1,000).
    const [head, ct] = [sealed.slice(0, sealed.lastIndexOf('.') + 1), sealed.slice(sealed.lastIndexOf('.') + 1)];
    const bytes = Buffer.from(ct, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    const tampered = head + bytes.toString('base64url');
    expect(box.open('razorpay_key_secret', tampered)).toBeNull();
    expect(createSecretBox(randomBytes(32)).open('razorpay_key_secret', sealed)).toBeNull();
  });

  it('reads plain-text rows from before as they are; an empty secret stays empty (unset)', () => {
    expect(box.open('razorpay_key_secret', 'legacy-plain')).toBe('legacy-plain');
    expect(box.seal('razorpay_key_secret', '')).toBe('');
  });

  it('generates DATA_DIR/secrets.key (0600) once and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vidi-secrets-'));
    try {
      const first = loadSecretBox(dir, undefined);
      const sealed = first.seal('f', 'x');
      expect(statSync(join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
      const before = readFileSync(join(dir, 'secrets.key'), 'utf8');
      expect(loadSecretBox(dir, undefined).open('f', sealed)).toBe('x');
      expect(readFileSync(join(dir, 'secrets.key'), 'utf8')).toBe(before);
      writeFileSync(join(dir, 'secrets.key'), 'short');
      expect(() => loadSecretBox(dir, undefined)).toThrow(/32-byte key/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('SECRETS_KEY must be 32 bytes of base64', () => {
    const key = randomBytes(32).toString('base64');
    expect(loadConfig({ SECRETS_KEY: key }).secretsKey?.equals(Buffer.from(key, 'base64'))).toBe(true);
    expect(() => loadConfig({ SECRETS_KEY: randomBytes(16).toString('base64') })).toThrow(/SECRETS_KEY/);
    expect(() => loadConfig({ SECRETS_KEY: 'not base64 at all!' })).toThrow(/SECRETS_KEY/);
  });
});
