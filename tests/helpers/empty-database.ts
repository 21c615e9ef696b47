import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type DbHandle } from '#db/connect';
import { createDatabase } from '#tests/support/postgres-cluster';
import { testDialect } from './test-database';

/** An empty database of the engine under test (not the migrated template): a migration's test starts it at the one before. */
export async function emptyDatabase(): Promise<{ handle: DbHandle; drop: () => void }> {
  if (testDialect === 'postgres') {
    const admin = inject('pgAdminUrl');
    const name = `m_${randomBytes(6).toString('hex')}`;
    await createDatabase(admin, name);
    return { handle: openDatabase(admin.replace(/\/[^/]*$/, `/${name}`)), drop: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'vidi-migration-'));
  return { handle: openDatabase(join(dir, 'vidi.db')), drop: () => rmSync(dir, { recursive: true, force: true }) };
}
