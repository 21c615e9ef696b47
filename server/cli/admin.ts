import { parseArgs } from 'node:util';
import { z } from 'zod';
import { EmailSchema, NameSchema, PasswordSchema } from '#sync/rest-api/auth';
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '#db/connect';
import { describeZodError } from '../http/router';
import { upsertAdmin } from '../auth/admin-account';
import { configuredPasswordParams } from '../auth/password';

// `npm run admin -- --email E --password P [--name N]`: creates, or promotes, a verified, active
// administrator: admins come from the command line, never from a default account (docs/decisions/0013-the-server-enforces-every-rule.md).

const USAGE = 'Usage: npm run admin -- --email <email> --password <password> [--name <name>]';

/** The same rules as sign-up, so an admin can always sign in through the normal login. */
const AdminArgs = z.strictObject({ email: EmailSchema, password: PasswordSchema, name: NameSchema.optional() });

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    fail(`${(e as Error).message}\n${USAGE}`, 2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.email === undefined || values.password === undefined) fail(`--email and --password are required.\n${USAGE}`, 2);
  const parsed = AdminArgs.safeParse({ email: values.email, password: values.password, ...(values.name !== undefined ? { name: values.name } : {}) });
  if (!parsed.success) fail(`Invalid input: ${describeZodError(parsed.error)}\n${USAGE}`, 2);

  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message, 2);
    throw e;
  }
  const { db, close } = openDatabase(config.databaseUrl, config.database);
  try {
    await migrateToLatest(db);
    const params = configuredPasswordParams(config);
    const result = await upsertAdmin(db, { email: parsed.data.email, password: parsed.data.password, name: parsed.data.name }, Date.now(), params);
    if (result.action === 'created') {
      console.log(`Created administrator ${result.email} ("${result.name}", id ${result.id}): verified and active.`);
    } else {
      console.log(
        `Promoted ${result.email} ("${result.name}", id ${result.id}) to administrator: verified, active, password reset, other sessions signed out.`,
      );
    }
  } finally {
    await close();
  }
}

main().catch((e: unknown) => {
  console.error('admin: failed:', e instanceof Error ? e.message : e);
  process.exit(1);
});
