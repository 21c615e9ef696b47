import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeEntryArgs, type ServerEntry } from '../scripts/lib/node-entry';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Runs a process entry point with only these variables (plus PATH), as an operator would start it:
 * from the run's server bundle (tests/setup/build-server.ts), or under tsx when there is none.
 */
function start(entry: ServerEntry, env: Record<string, string>) {
  return spawnSync(process.execPath, nodeEntryArgs(entry), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('start-up with a PostgreSQL DATABASE_URL', () => {
  // Port 1 on loopback: nothing listens, so getting past the check would fail differently (and later).
  const DATABASE_URL = 'postgres://vidi:secret@127.0.0.1:1/vidi';

  for (const entry of ['main', 'worker'] as const) {
    it(`server/${entry}.ts refuses to start without the shared keys and PUBLIC_URL, naming each, before touching the database`, () => {
      const run = start(entry, { DATABASE_URL, MEDIA_WORKER: 'off' });
      expect(run.status, run.stderr).toBe(2);
      for (const name of ['JWT_PRIVATE_KEY', 'PUBLIC_URL', 'SECRETS_KEY']) expect(run.stderr).toContain(`${name}: required with a PostgreSQL DATABASE_URL`);
      expect(run.stderr).not.toContain('ECONNREFUSED');
    });
  }
});

describe('start-up with a bad MEDIA_PUBLIC_BASE_URL', () => {
  it('server/main.ts refuses to start, naming the variable and its value, before opening anything', () => {
    const run = start('main', { MEDIA_PUBLIC_BASE_URL: 'https://cdn.example.com/media?token=1', DATA_DIR: '/nonexistent/vidi-startup-test' });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain('MEDIA_PUBLIC_BASE_URL: must be a plain http(s) base URL');
    expect(run.stderr).toContain('"https://cdn.example.com/media?token=1"');
  });
});
