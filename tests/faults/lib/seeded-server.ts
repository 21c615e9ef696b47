import { mkdtempSync, rmSync } from 'node:fs';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { migrateToLatest, openSqlite as openDatabase } from '#db/connect';
import { seedDatabase } from '#server/cli/seed';
import { startServer, type ServerProcess } from '#tests/helpers/server-process';
import { freePort } from '#tests/bench/lib/processes';
import { tokenMinter } from '#tests/bench/lib/context';
import { readOnly } from '#tests/bench/lib/tree-server';
import { nodeEntryArgs } from '../../../scripts/lib/node-entry';

export interface SeededServer {
  server: ServerProcess;
  dataDir: string;
  dbPath: string;
  users: string[];
  videos: string[];
  token(userId: string): Promise<string>;
  /** Opens the database read-only (WAL: it sees every committed write of the running server). */
  read<T>(fn: (db: Database.Database) => T): T;
  /** The server's process id (it changes on restart). */
  pid(): number;
  close(): Promise<void>;
}

export interface SeedSize {
  users: number;
  videos: number;
  likes: number;
  comments: number;
  views: number;
}

/** The real server (spawned like `npm start`) on a freshly seeded DATA_DIR. */
export async function seededServer(size: SeedSize): Promise<SeededServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vidi-faults-'));
  const dbPath = join(dataDir, 'vidi.sqlite');
  const handle = openDatabase(dbPath);
  await migrateToLatest(handle.db);
  await seedDatabase(handle, join(dataDir, 'media'), { ...size, password: undefined, seed: 7 });
  await handle.close();
  const port = await freePort();
  // Load and crash runs push from each member far faster than a person can (hundreds a second): the
  // production push limit (docs/sync.md) would answer most of them 429, so it is lifted here.
  // DATABASE_URL names the seeded file: the reliability suite runs on SQLite in every vitest project
  // (it reads the server's rows with better-sqlite3), also the PostgreSQL one.
  const server = await startServer({
    dataDir,
    port,
    env: { LOG_LEVEL: 'error', DATABASE_URL: dbPath, PUSH_RATE_BURST: '1000000', PUSH_RATE_PER_MINUTE: '1000000' },
  });
  const mint = await tokenMinter(dataDir, `http://127.0.0.1:${port}`);
  const read = readOnly(dbPath);
  const users = read((db) => db.prepare<[], string>('SELECT id FROM profiles ORDER BY id').pluck().all());
  const videos = read((db) => db.prepare<[], string>('SELECT id FROM videos ORDER BY id').pluck().all());
  return {
    server,
    dataDir,
    dbPath,
    users,
    videos,
    token: mint,
    read,
    pid: () => serverPid(dataDir),
    close: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a scenario; if it throws, the error carries the end of the server's log (a crash shows why). */
export async function withServerLog<T>(s: SeededServer, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    err.message += `\n--- server output (last 3000 chars) ---\n${s.server.output().slice(-3000)}`;
    throw err;
  }
}

/** Finds the server process serving this DATA_DIR (startServer does not expose the child's pid). */
export function serverPid(dataDir: string): number {
  // The file startServer ran: the bundle's main.mjs, or server/main.ts under tsx.
  const serverEntry = nodeEntryArgs('main').at(-1)!;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes(serverEntry)) continue;
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (env.includes(`DATA_DIR=${dataDir}`)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  throw new Error(`no server process for ${dataDir}`);
}

/** Row counts of every table: the "nothing changed" fingerprint. */
export function rowCounts(db: Database.Database): Record<string, number> {
  const tables = db
    .prepare<[], string>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name`)
    .pluck()
    .all();
  return Object.fromEntries(tables.map((t) => [t, Number(db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get())]));
}
