import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject, onTestFinished } from 'vitest';
import { openDatabase, type DbHandle } from '#db/connect';
import { createDatabase } from '#tests/support/postgres-cluster';
import { testDialect } from './test-database';

/** A database nothing has migrated yet (not the migrated template): a SQLite file in `dir`, or a new empty PostgreSQL database. */
export async function emptyDatabaseUrl(dir: string): Promise<string> {
  if (testDialect === 'sqlite') return join(dir, 'vidi.sqlite');
  const admin = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await createDatabase(admin, name);
  return admin.replace(/\/[^/]*$/, `/${name}`);
}

/**
 * An empty database of the engine under test, opened, for a migration's test to start at the one
 * before: closed and its folder removed when the calling test finishes.
 */
export async function emptyDatabase(): Promise<DbHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'vidi-migration-'));
  const handle = openDatabase(await emptyDatabaseUrl(dir));
  onTestFinished(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return handle;
}
