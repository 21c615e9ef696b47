import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { PROJECT_ROOT } from '../../helpers/server-process';

// What `npm run bench` (tests/bench/run.ts) sets up before the benchmarks and writes after them.

export const SEEDS = {
  full: { users: 10_000, videos: 100_000, likes: 1_000_000, comments: 300_000, views: 1_000_000 },
  small: { users: 300, videos: 3_000, likes: 20_000, comments: 6_000, views: 20_000 },
} as const;

/** The machine a run's figures come from, written beside them. */
export function machine() {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadavg_at_start: loadavg().map((l) => Math.round(l * 100) / 100),
    date: new Date().toISOString(),
  };
}

/** Seeds the database of DATABASE_URL (PostgreSQL: always a new one), or the SQLite file unless it exists. */
export function seedIfMissing(dataDir: string, dbPath: string, seedSize: keyof typeof SEEDS, databaseUrl?: string): void {
  if (!databaseUrl && existsSync(dbPath)) {
    console.log('reusing the seeded database');
    return;
  }
  const n = SEEDS[seedSize];
  const args = ['--users', n.users, '--videos', n.videos, '--likes', n.likes, '--comments', n.comments, '--views', n.views].map(String);
  console.log(`seeding: ${args.join(' ')}`);
  mkdirSync(dataDir, { recursive: true });
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/seed.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    stdio: 'inherit',
  });
}

/** The member the benchmarks act as: one who has liked something, else any active member. */
export function pickViewer(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true });
  const viewer = db.prepare<[], { user_id: string }>('SELECT user_id FROM likes ORDER BY rowid LIMIT 1').get();
  const anyUser = db.prepare<[], { id: string }>('SELECT id FROM profiles WHERE is_active = 1 LIMIT 1').get();
  db.close();
  const viewerId = viewer?.user_id ?? anyUser?.id;
  if (!viewerId) throw new Error('the seeded database has no member');
  return viewerId;
}

/**
 * The browser benchmarks need the built client. A private copy, so a rebuild of dist/ by someone
 * else during the run cannot swap the app (and its service worker) under a measurement.
 */
export function privateClientCopy(tmpDir: string): string {
  const dist = process.env.VIDI_CLIENT_DIST ?? join(PROJECT_ROOT, 'dist/client');
  if (!existsSync(join(dist, 'index.html'))) {
    console.log('building the client (dist/client is missing)');
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  }
  const clientDist = join(tmpDir, 'client');
  cpSync(dist, clientDist, { recursive: true });
  return clientDist;
}

/** `--json FILE`: the run's rows and settings, for comparing runs. */
export function writeResults(file: string, results: object): void {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(results, null, 2));
  console.log(`wrote ${path}`);
}
