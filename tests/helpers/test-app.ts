import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#server/config';
import { createDeps } from '#server/deps';
import { createApp, type App } from '#server/app';
import { closeTusEndpoint } from '#server/uploads/tus-server';
import type { AppDeps } from '#server/context';
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
 * The whole app in-process on a real database (a SQLite file in a fresh DATA_DIR, or a fresh
 * PostgreSQL database in the PostgreSQL projects; one per test file), for
 * tests that call app.request() without opening a port.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
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
  const deps = await createDeps(config, { now: () => Date.now() + offset });
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
