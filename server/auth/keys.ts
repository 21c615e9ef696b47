import { generateKeyPair, exportPKCS8, importPKCS8, type CryptoKey } from 'jose';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicKey, createPrivateKey, type KeyObject } from 'node:crypto';

export interface SigningKeys {
  privateKey: CryptoKey;
  publicKey: CryptoKey | KeyObject;
}

const ALG = 'EdDSA';

/**
 * The EdDSA key that signs access tokens: JWT_PRIVATE_KEY when given, else DATA_DIR/jwt-ed25519.pem,
 * generated (mode 0600) on first start so `npm start` needs no configuration.
 */
export async function loadSigningKeys(dataDir: string, configured: string | undefined): Promise<SigningKeys> {
  let pem = configured;
  if (!pem) {
    const file = join(dataDir, 'jwt-ed25519.pem');
    if (existsSync(file)) {
      pem = readFileSync(file, 'utf8');
    } else {
      const { privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
      pem = await exportPKCS8(privateKey);
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, pem, { mode: 0o600 });
    }
  }
  const privateKey = await importPKCS8(pem, ALG);
  const publicKey = createPublicKey(createPrivateKey(pem));
  return { privateKey, publicKey };
}
