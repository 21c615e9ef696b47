import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL server in a temporary folder, from Debian's `postgresql` package
 * (initdb + pg_ctl), for the tests and `npm run bench -- --db postgres`. Nothing here is used by
 * the server itself. docs/operations.md covers real deployments.
 */
export interface PostgresCluster {
  /** The superuser's URL of database `name` (default `postgres`). */
  url(name?: string): string;
  dir: string;
  port: number;
  /** Shuts the server down (fast mode: connections are cut) but keeps its files. */
  halt(): void;
  /** Starts a halted server again on the same port. */
  resume(): void;
  stop(): Promise<void>;
}

const MIN_MAJOR = 15;

/** The bin folder of the newest installed PostgreSQL >= 15 (PG_BIN overrides), or undefined. */
export function findPostgresBin(): string | undefined {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'pg_ctl')) ? process.env.PG_BIN : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .map(Number)
    .filter((v) => v >= MIN_MAJOR && existsSync(join(root, String(v), 'bin', 'pg_ctl')))
    .sort((a, b) => b - a);
  return majors.length ? join(root, String(majors[0]), 'bin') : undefined;
}

/** A loopback port the kernel just handed out (free a moment ago). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const addr = probe.address();
      probe.close(() => ok(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` system user. */
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid, gid };
}

function run(prefix: string[], command: string, args: string[]): void {
  const [cmd, ...rest] = [...prefix, command, ...args];
  const r = spawnSync(cmd!, rest, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} failed (${r.status}): ${r.stderr || r.stdout}`);
}

export interface ClusterOptions {
  /** Tests trade durability for speed (fsync off); benchmarks keep PostgreSQL's defaults. */
  durable?: boolean;
  maxConnections?: number;
}

/** Starts a new cluster (about 2 s) on a free loopback port; `stop()` shuts it down and deletes it. */
export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(`PostgreSQL >= ${MIN_MAJOR} is not installed (apt-get install -y postgresql, or set PG_BIN)`);
  const dir = mkdtempSync(join(tmpdir(), 'vidi-pg-'));
  const who = runAs();
  if (who.uid !== undefined) chownSync(dir, who.uid, who.gid!);
  const data = join(dir, 'data');
  run(who.prefix, join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const settings = [
    `-k ${dir}`,
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c max_connections=${options.maxConnections ?? 300}`,
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ];
  const start = () => run(who.prefix, join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-o', settings.join(' '), '-w', 'start']);
  start();
  const url = (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`;
  return {
    url,
    dir,
    port,
    halt: () => run(who.prefix, join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']),
    resume: start,
    stop: async () => {
      try {
        run(who.prefix, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // Already stopped (a test stopped it to cut the connection): the folder goes all the same.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates database `name` on the cluster at `adminUrl`, optionally as a copy of `template`. */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await client.end();
  }
}
