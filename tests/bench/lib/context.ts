import type { ServerProcess } from '#tests/helpers/server-process';
import { createAccessTokens } from '#server/auth/access-tokens';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadSigningKeys } from '#server/auth/keys';
import { sharedKeysEnv } from '../../helpers/test-database';
import type { BenchRow } from './result';

export interface BenchContext {
  quick: boolean;
  /** A/B rounds per benchmark (each side runs this many times, interleaved). */
  rounds: number;
  /** Seconds of one autocannon round. */
  seconds: number;
  seedSize: 'full' | 'small';
  server: ServerProcess;
  dataDir: string;
  /** The engine the server runs on (`--db`). */
  dialect: 'sqlite' | 'postgres';
  /** The server's DATABASE_URL: the SQLite file (= dbPath) or the benchmark's PostgreSQL database. */
  databaseUrl: string;
  /** The SQLite file in DATA_DIR (SQLite runs only). */
  dbPath: string;
  /** Scratch space removed after the run. */
  tmpDir: string;
  /** The built client the server serves (a copy of dist/client taken at the start). */
  clientDist: string;
  /** A seeded, active member to act as. */
  viewerId: string;
  /** An access token for a member, signed with the server's key in DATA_DIR (as a login would). */
  token(userId?: string): Promise<string>;
  log(message: string): void;
}

export interface Benchmark {
  /** Short id for --only. */
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

/**
 * Signs access tokens as the server does: with its DATA_DIR key file on SQLite, or with the shared
 * test key a server on PostgreSQL is given (sharedKeysEnv; such a server writes no key file).
 */
export async function tokenMinter(dataDir: string, issuer: string): Promise<(userId: string) => Promise<string>> {
  const keyFile = existsSync(join(dataDir, 'jwt-ed25519.pem'));
  const keys = await loadSigningKeys(dataDir, keyFile ? undefined : sharedKeysEnv.JWT_PRIVATE_KEY);
  const tokens = createAccessTokens(keys, issuer, Date.now);
  return async (userId) => (await tokens.issue(userId)).token;
}

/** Status of one request, to tell "feature not mounted yet" (404) from a working endpoint. */
export async function probe(url: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, init);
  return { status: res.status, text: await res.text() };
}
