import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sharedKeysEnv, testDatabaseEnv } from './test-database';
import { testStorageEnv } from './test-storage';
import { openDatabase, type DbHandle } from '#db/connect';
import { freePort } from '#tests/support/postgres-cluster';
import { nodeEntryArgs } from '../../scripts/lib/node-entry';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  /** The server's DATABASE_URL: its PostgreSQL database, or the SQLite file in its DATA_DIR. */
  databaseUrl: string;
  /** Everything the server printed so far. */
  output(): string;
  /** SIGTERM, wait for exit, and remove the DATA_DIR if this helper made it (not one the caller passed). */
  stop(): Promise<void>;
  /** SIGKILL (a crash) and wait for exit. */
  kill9(): Promise<void>;
  /** Starts it again on the same port and DATA_DIR. */
  restart(): Promise<void>;
}

export { freePort };

/**
 * New passwords hashed at scrypt N=2^12 instead of the production 2^17 (decision 0005), for spawned
 * servers whose tests are not about the hash (every browser test's): each sign-up and login cost
 * about half a second of a core at 2^17. tests/api/auth-brute-force.test.ts's bounded queue and
 * server/auth/password.test.ts keep the production cost. The server (and `npm run admin`) take it
 * only under NODE_ENV=test, which vitest sets.
 */
export const TEST_PASSWORD_COST = { PASSWORD_HASH_LOG2N: '12' };

/**
 * Starts the real server the way `npm start` does (minus the build: the run's global setups built the
 * client and the server bundle once, `nodeEntryArgs`) on a free port with a fresh DATA_DIR, and waits
 * until it listens.
 */
export async function startServer(opts: { env?: Record<string, string>; dataDir?: string; port?: number } = {}): Promise<ServerProcess> {
  const ownDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'vidi-srv-'));
  let port = opts.port ?? (await freePort());
  let child: ChildProcess | undefined;
  let log = '';
  const database = opts.env?.DATABASE_URL ? {} : await testDatabaseEnv(dataDir);
  // In the s3 project each server gets a bucket of its own, unless the test shares one between servers.
  const storage = opts.env?.S3_BUCKET ? {} : await testStorageEnv();
  // A server on PostgreSQL refuses to start without shared keys (server/config.ts).
  const keys = /^postgres/.test(opts.env?.DATABASE_URL ?? database.DATABASE_URL ?? '') ? sharedKeysEnv : {};

  const launch = async () => {
    const env = {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      CLIENT_DIST: join(PROJECT_ROOT, 'dist/client'),
      ...(port ? { PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
      ...keys,
      ...database,
      ...storage,
      ...opts.env,
    };
    // VIDI_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the spawned server.
    const nodeArgs = process.env.VIDI_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    child = spawn(process.execPath, [...nodeArgs, ...nodeEntryArgs('main')], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const c = child;
    // A restart keeps the earlier output in `log`: only this launch's part may say it listens.
    const launchedAt = log.length;
    port = await new Promise<number>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`server did not start in 30 s:\n${log}`)), 30_000);
      const onData = (d: Buffer) => {
        log += d.toString();
        const m = /Vidi listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log.slice(launchedAt));
        if (m?.[1]) {
          clearTimeout(timer);
          ok(Number(m[1]));
        }
      };
      c.stdout?.on('data', onData);
      c.stderr?.on('data', (d: Buffer) => (log += d.toString()));
      c.on('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`server exited with ${code}:\n${log}`));
      });
    });
  };

  const waitExit = (signal: NodeJS.Signals) =>
    new Promise<void>((ok) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return ok();
      child.once('exit', () => ok());
      child.kill(signal);
    });

  await launch();
  const firstPort = port;
  const handle: ServerProcess = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    dataDir,
    databaseUrl: opts.env?.DATABASE_URL ?? database.DATABASE_URL ?? join(dataDir, 'vidi.sqlite'),
    output: () => log,
    stop: async () => {
      await waitExit('SIGTERM');
      // An ffmpeg the server started may outlive it by a moment and still write there: a few retries.
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
    },
    kill9: () => waitExit('SIGKILL'),
    restart: async () => {
      await waitExit('SIGTERM');
      port = firstPort;
      await launch();
    },
  };
  return handle;
}

/** The running server's database through Kysely, on whichever engine it uses; close it when done. */
export function openServerDatabase(server: Pick<ServerProcess, 'databaseUrl'>): DbHandle {
  return openDatabase(server.databaseUrl);
}
