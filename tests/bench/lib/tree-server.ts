import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tokenMinter } from './context';
import { freePort } from './processes';
import type { LoadTarget } from './mixed-load';

export interface TreeServer extends LoadTarget {
  stop(): Promise<void>;
}

/**
 * The server of a source tree (this checkout, or another commit's worktree with its own
 * node_modules) on a SQLite database seeded by that tree's own seed CLI, spawned as `npm start`
 * runs it: the same way for both sides of a comparison between two builds. The push limit is
 * lifted, as in the fault suite's load run (tests/faults/lib/seeded-server.ts).
 */
export async function startTreeServer(tree: string, seed: Record<string, number>): Promise<TreeServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vidi-tree-'));
  const dbPath = join(dataDir, 'vidi.sqlite');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, DATABASE_URL: dbPath, LOG_LEVEL: 'error' };
  const args = Object.entries(seed).flatMap(([k, v]) => [`--${k}`, String(v)]);
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/seed.ts', ...args], { cwd: tree, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const port = await freePort();
  // VIDI_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles it, as tests/helpers/server-process.ts does.
  const nodeArgs = process.env.VIDI_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, 'server/main.ts'], {
    cwd: tree,
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      CLIENT_DIST: join(dataDir, 'no-client'),
      MEDIA_WORKER: 'off',
      PUSH_RATE_BURST: '1000000',
      PUSH_RATE_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server of ${tree} did not start in 60 s:\n${log}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      log += d.toString();
      if (/Vidi listening on/.test(log)) {
        clearTimeout(timer);
        ok();
      }
    });
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the server of ${tree} exited with ${code}:\n${log}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const read = readOnly(dbPath);
  return {
    server: { url },
    users: read((db) => db.prepare<[], string>('SELECT id FROM profiles ORDER BY id').pluck().all()),
    videos: read((db) => db.prepare<[], string>('SELECT id FROM videos ORDER BY id').pluck().all()),
    // Signed with the key the server wrote into its DATA_DIR at its start.
    token: await tokenMinter(dataDir, url),
    read,
    pid: () => child.pid ?? 0,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` on the database opened read-only (WAL: it sees every committed write of the running server). */
export function readOnly(dbPath: string) {
  return <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(dbPath, { readonly: true });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
}
