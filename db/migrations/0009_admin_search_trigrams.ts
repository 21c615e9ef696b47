import { sql, type Kysely } from 'kysely';
import { onPostgres } from './portable';

// The admin user search matches part of a name or e-mail anywhere (`ILIKE '%x%'` on PostgreSQL,
// `LIKE` on SQLite). No btree can serve a pattern with a leading wildcard, so on PostgreSQL a
// search would read every profile; trigram GIN indexes (the pg_trgm extension, part of the
// postgresql package on Debian and of every mainstream distribution) serve it for patterns of 3
// characters or more. A prefix-only search would fit a btree but would stop finding "smith" in
// "john.smith@…", which the admin tab relies on. SQLite keeps its scan: the search is an admin page
// of a few thousand rows per second at worst there, and LIKE has no index form either.
//
// pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it. Where the
// server lacks it (or the role may not create it), the migration leaves the indexes out and the
// search stays correct, only slower.

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!onPostgres(db)) return;
  // Available, and either installed already (by an administrator) or ours to create: a trusted
  // extension needs CREATE on the database. A refused CREATE EXTENSION would abort the migration.
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_available_extensions
    WHERE name = 'pg_trgm' AND (installed_version IS NOT NULL OR has_database_privilege(current_database(), 'CREATE'))`.execute(db);
  if (Number(rows[0]?.n ?? 0) === 0) return;
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS profiles_name_trgm ON profiles USING gin (name gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS profiles_email_trgm ON profiles USING gin (email gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!onPostgres(db)) return;
  await sql`DROP INDEX IF EXISTS profiles_email_trgm`.execute(db);
  await sql`DROP INDEX IF EXISTS profiles_name_trgm`.execute(db);
}
