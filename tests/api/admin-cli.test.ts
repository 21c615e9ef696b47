import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../helpers/test-database';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '#db/connect';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { emptyDatabaseUrl } from '../helpers/empty-database';
import { PROJECT_ROOT, TEST_PASSWORD_COST } from '../helpers/server-process';
import { nodeEntryArgs } from '../../scripts/lib/node-entry';
import { login, signUpVerified } from '../helpers/auth-flow';
import { parsePasswordHash } from '#server/auth/password';

/**
 * Runs the real `npm run admin` entry point (the run's server bundle) against DATA_DIR and the database
 * at `databaseUrl`. It hashes at the tests' cost unless `hashCost` says otherwise: only the first case is
 * about the hash the CLI stores.
 */
function runAdminCli(
  dataDir: string,
  databaseUrl: string,
  args: string[],
  hashCost: Record<string, string> = TEST_PASSWORD_COST,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeEntryArgs('admin'), ...args],
      { cwd: PROJECT_ROOT, env: { ...process.env, ...hashCost, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

describe(`npm run admin (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const profileByEmail = (email: string) => t.deps.db.selectFrom('profiles').selectAll().where('email', '=', email).executeTakeFirst();

  it('creates a verified, active administrator who can sign in', async () => {
    // The production cost (PASSWORD_HASH_LOG2N unset), which the stored hash is checked against.
    const res = await runAdminCli(
      t.dataDir,
      t.deps.config.databaseUrl,
      ['--email', ' Boss@Example.TEST ', '--password', 'boss-password', '--name', 'The Boss'],
      {},
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Created administrator boss@example.test');

    const row = await profileByEmail('boss@example.test');
    expect(row).toMatchObject({ name: 'The Boss', is_admin: 1, is_active: 1, account_status: 'active' });
    expect(row?.email_verified_at).toBeGreaterThan(0);
    const cred = await t.deps.db
      .selectFrom('credentials')
      .select('password_hash')
      .where('user_id', '=', row?.id ?? '')
      .executeTakeFirstOrThrow();
    expect(parsePasswordHash(cred.password_hash)?.params.log2N).toBe(17);

    const session = await login(t, 'boss@example.test', 'boss-password');
    expect(session.status).toBe(200);
    expect(session.json.user).toMatchObject({ is_admin: true, is_active: true, account_status: 'active' });
    const adminOnly = await call(t.app, 'GET', '/api/admin/users', undefined, session.json.access_token);
    expect(adminOnly.status).toBe(200);
  });

  it('promotes an existing member: admin, password reset, old sessions signed out, name kept unless given', async () => {
    const member = await signUpVerified(t, { name: 'Plain Member', email: 'member@example.test', password: 'old-password' });
    const old = await login(t, 'member@example.test', 'old-password');
    expect(old.json.user.is_admin).toBe(false);

    const res = await runAdminCli(t.dataDir, t.deps.config.databaseUrl, ['--email', 'member@example.test', '--password', 'new-password']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Promoted member@example.test');

    const row = await profileByEmail('member@example.test');
    expect(row).toMatchObject({ id: member.id, name: 'Plain Member', is_admin: 1, is_active: 1, account_status: 'active' });
    expect((await login(t, 'member@example.test', 'old-password')).status).toBe(401);
    const fresh = await login(t, 'member@example.test', 'new-password');
    expect(fresh.status).toBe(200);
    expect(fresh.json.user.is_admin).toBe(true);
    expect((await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: old.json.refresh_token })).status).toBe(401);
    // The client's copy of the profile learns about the change through the change log.
    const changes = await t.deps.db.selectFrom('change_log').selectAll().where('entity', '=', 'profile').where('entity_id', '=', member.id).execute();
    expect(changes).toHaveLength(1);
  }, 60_000);

  it('reactivates, verifies and clears the payment state of an account it promotes', async () => {
    await call(t.app, 'POST', '/api/auth/signup', { name: 'Stuck', email: 'stuck@example.test', password: 'stuck-password' });
    await t.deps.db.updateTable('profiles').set({ is_active: 0, account_status: 'pending_payment' }).where('email', '=', 'stuck@example.test').execute();

    const res = await runAdminCli(t.dataDir, t.deps.config.databaseUrl, ['--email', 'stuck@example.test', '--password', 'stuck-password', '--name', 'Unstuck']);
    expect(res.code).toBe(0);
    const row = await profileByEmail('stuck@example.test');
    expect(row).toMatchObject({ name: 'Unstuck', is_admin: 1, is_active: 1, account_status: 'active' });
    expect(row?.email_verified_at).toBeGreaterThan(0);
    expect((await login(t, 'stuck@example.test', 'stuck-password')).status).toBe(200);
  }, 60_000);

  it('works on a fresh database before the server ever ran (it migrates the database itself)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vidi-admin-cli-'));
    try {
      const url = await emptyDatabaseUrl(dir);
      const res = await runAdminCli(dir, url, ['--email', 'first@example.test', '--password', 'first-password']);
      expect(res.code).toBe(0);
      const { db, close } = openDatabase(url);
      try {
        const row = await db.selectFrom('profiles').selectAll().where('email', '=', 'first@example.test').executeTakeFirst();
        expect(row).toMatchObject({ name: 'Admin', is_admin: 1, is_active: 1, account_status: 'active' });
      } finally {
        await close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses bad input with a clear message and exit code 2, changing nothing', async () => {
    const before = await t.deps.db.selectFrom('profiles').select('id').execute();
    const cases: Array<[string[], string]> = [
      [['--email', 'not-an-email', '--password', 'secret-1'], 'Enter a valid email address'],
      [['--email', 'short@example.test', '--password', '12345'], 'Password must be at least 6 characters long'],
      [['--email', 'ctl@example.test', '--password', 'secret-1', '--name', 'bad\u0007name'], 'control characters'],
      [['--email', 'missing@example.test'], '--email and --password are required'],
      [['--email', 'x@example.test', '--password', 'secret-1', '--admin', 'yes'], 'Unknown option'],
    ];
    for (const [args, message] of cases) {
      const res = await runAdminCli(t.dataDir, t.deps.config.databaseUrl, args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(message);
      expect(res.stderr).toContain('Usage: npm run admin');
    }
    expect(await t.deps.db.selectFrom('profiles').select('id').execute()).toHaveLength(before.length);
  }, 120_000);
});
