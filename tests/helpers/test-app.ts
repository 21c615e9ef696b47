import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#server/config';
import { createDeps } from '#server/deps';
import { createApp, type App } from '#server/app';
import { closeTusEndpoint } from '#server/uploads/tus-server';
import type { AppDeps } from '#server/context';
import { PASSWORD_PARAMS, type ScryptParams } from '#server/auth/password';
import { testDatabaseEnv } from './test-database';
import { testStorageEnv } from './test-storage';

export interface TestApp {
  app: App;
  deps: AppDeps;
  dataDir: string;
  /** Moves the app's clock (tokens, expiries, rate limits) forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

/**
 * The cost of the in-process app's password hashes: scrypt at N=2^12 instead of 2^17, 32 times less
 * work, for suites that sign members up and in to test something else (limits, recovery, sessions).
 * What is about the hash itself runs at the production cost: server/auth/password.test.ts (the
 * format and the parameters) and every spawned server (tests/helpers/server-process.ts): the e2e
 * files, and the bounded two-slot queue of tests/api/auth-brute-force.test.ts among them. A suite
 * that times the hash in-process passes `passwordCost: 'production'`.
 */
const FAST_PASSWORD_PARAMS: ScryptParams = { ...PASSWORD_PARAMS, log2N: 12 };

export interface TestAppOptions {
  /** 'production' for a suite about the hash's cost (its time, its queue); 'fast' otherwise. */
  passwordCost?: 'production' | 'fast';
}

/**
 * The whole app in-process on a real database (a SQLite file in a fresh DATA_DIR, or a fresh
 * PostgreSQL database in the PostgreSQL projects; one per test file), for
 * tests that call app.request() without opening a port.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vidi-test-'));
  let offset = 0;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    CLIENT_DIST: join(dataDir, 'no-client'),
    ...(await testDatabaseEnv(dataDir)),
    ...(env.S3_BUCKET ? {} : await testStorageEnv()),
    ...env,
  });
  const passwordParams = options.passwordCost === 'production' ? PASSWORD_PARAMS : FAST_PASSWORD_PARAMS;
  const deps = await createDeps(config, { now: () => Date.now() + offset, passwordParams });
  const app = createApp(deps);
  return {
    app,
    deps,
    dataDir,
    advance: (ms) => {
      offset += ms;
    },
    close: async () => {
      await closeTusEndpoint(deps);
      await deps.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** JSON request helper for app.request(): `await call(app, 'POST', '/api/x', body, token)`. */
export async function call(app: App, method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers } };
  const h = init.headers as Record<string, string>;
  if (body !== undefined) {
    h['content-type'] ??= 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  if (token) h.authorization = `Bearer ${token}`;
  const res = await app.request(path, init);
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json: json as any, text };
}
