import { generateKeyPairSync, randomBytes } from 'node:crypto';

/**
 * What every process of one deployment must share (sharedDeploymentProblems in server/config.ts):
 * one signing key, so a token from instance A is valid on B, and one secrets key, so each decrypts
 * the payment settings the other saved. Made once per cluster, held in memory only.
 */
export function sharedKeys(): { JWT_PRIVATE_KEY: string; SECRETS_KEY: string } {
  return {
    JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    SECRETS_KEY: randomBytes(32).toString('base64'),
  };
}

/** An environment as shell assignments, for printing the commands a person runs against the cluster. */
export function shellAssignments(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => `${k}=${/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`}`)
    .join(' ');
}
