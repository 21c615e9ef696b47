import type { PostgresOptions } from '#db/postgres';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createDatabase } from '#tests/support/postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by tests/setup/postgres.ts in the PostgreSQL projects: the throwaway cluster's superuser URL. */
    pgAdminUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'vidi_template';

/** The engine this run of the suite tests: the `*-postgres` projects set VIDI_TEST_DB=postgres. */
export const testDialect: 'sqlite' | 'postgres' = process.env.VIDI_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

const byDataDir = new Map<string, string>();

/**
 * A server on PostgreSQL must be given its signing and secrets keys (sharedDeploymentProblems in
 * server/config.ts): one pair per test process, as a deployment shares one pair between instances.
 */
export const sharedKeysEnv = {
  JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  SECRETS_KEY: randomBytes(32).toString('base64'),
};

/**
 * DATABASE_URL for a server using `dataDir`: on PostgreSQL a new migrated database (one per data
 * folder, so a restarted server finds its rows again); on SQLite nothing (the file in DATA_DIR).
 */
export async function testDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  if (testDialect === 'sqlite') return {};
  let url = byDataDir.get(dataDir);
  if (!url) {
    // Imported here: this helper also serves the benchmarks, which run outside vitest.
    const { inject } = await import('vitest');
    const admin = inject('pgAdminUrl');
    const name = `t_${randomBytes(6).toString('hex')}`;
    await createDatabase(admin, name, TEMPLATE_DATABASE);
    url = admin.replace(/\/[^/]*$/, `/${name}`);
    byDataDir.set(dataDir, url);
  }
  return { DATABASE_URL: url, ...sharedKeysEnv };
}

/**
 * For the plan tests that fill a database with volume (a million videos in one INSERT): the app's
 * 30 s statement timeout (db/connect.ts) is for requests, and on a slow, shared CI machine one such
 * INSERT took longer. Their hooks' own timeouts (300 s) still bound a real hang.
 */
export const VOLUME_SEEDING_POSTGRES: PostgresOptions = { poolSize: 10, statementTimeoutMs: 240_000 };
