import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '#db/connect';

// `npm run migrate`: brings the database of DATABASE_URL (or DATA_DIR's SQLite file) to the latest
// migration and exits. The server and the worker do the same at start; this is for running the
// migrations ahead of a rolling deploy, before any new process starts (docs/operations.md).

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const { db, close } = openDatabase(config.databaseUrl, config.database);
  try {
    const before = await appliedCount(db);
    await migrateToLatest(db);
    const after = await appliedCount(db);
    console.log(after > before ? `Applied ${after - before} migration(s); ${after} in all.` : `Up to date (${after} migrations).`);
  } finally {
    await close();
  }
}

/** Migrations recorded in Kysely's own table (none on a new database). */
async function appliedCount(db: ReturnType<typeof openDatabase>['db']): Promise<number> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === 'kysely_migration')) return 0;
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM kysely_migration`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

main().catch((e: unknown) => {
  console.error('migrate: failed:', e instanceof Error ? e.message : e);
  process.exit(1);
});
