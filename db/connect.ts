import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema';
import type { Engine } from './engine';
import { openSqlite } from './sqlite';
import { openPostgres, type PostgresOptions } from './postgres';
import * as m0001 from './migrations/0001_initial';
import * as m0002uploads from './migrations/0002_upload_posters';
import * as m0003rewards from './migrations/0003_rewards_indexes';
import * as m0004comments from './migrations/0004_comments_order';
import * as m0005changeLog from './migrations/0005_drop_change_log_entity';
import * as m0006likesUser from './migrations/0006_drop_likes_user';
import * as m0007prizes from './migrations/0007_prizes_not_farmable';
import * as m0008media from './migrations/0008_media_processing';
import * as m0009adminSearch from './migrations/0009_admin_search_trigrams';
import * as m0010rateLimits from './migrations/0010_rate_limits';
import * as m0011notifications from './migrations/0011_notifications';
import * as m0012fairQueue from './migrations/0012_fair_media_queue';
import * as m0013pushSessions from './migrations/0013_push_sessions';
import * as m0014people from './migrations/0014_people';
import * as m0015peopleReads from './migrations/0015_people_reads';
import * as m0016conversations from './migrations/0016_conversations';
import * as m0017safety from './migrations/0017_safety';
import * as m0018mutesMuted from './migrations/0018_mutes_muted';
import * as m0019discovery from './migrations/0019_discovery';
import * as m0020hashtagsAdmin from './migrations/0020_hashtags_admin';
import * as m0021hashtagsTop from './migrations/0021_hashtags_top';
import * as m0022hashtagsTopTrigger from './migrations/0022_hashtags_top_trigger';

/** Migrations are listed here, in order, so the bundle needs no file-system scan. */
const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_upload_posters': m0002uploads,
  '0003_rewards_indexes': m0003rewards,
  '0004_comments_order': m0004comments,
  '0005_drop_change_log_entity': m0005changeLog,
  '0006_drop_likes_user': m0006likesUser,
  '0007_prizes_not_farmable': m0007prizes,
  '0008_media_processing': m0008media,
  '0009_admin_search_trigrams': m0009adminSearch,
  '0010_rate_limits': m0010rateLimits,
  '0011_notifications': m0011notifications,
  '0012_fair_media_queue': m0012fairQueue,
  '0013_push_sessions': m0013pushSessions,
  '0014_people': m0014people,
  '0015_people_reads': m0015peopleReads,
  '0016_conversations': m0016conversations,
  '0017_safety': m0017safety,
  '0018_mutes_muted': m0018mutesMuted,
  '0019_discovery': m0019discovery,
  '0020_hashtags_admin': m0020hashtagsAdmin,
  '0021_hashtags_top': m0021hashtagsTop,
  '0022_hashtags_top_trigger': m0022hashtagsTopTrigger,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export interface DbHandle {
  db: Kysely<Database>;
  /** The engine under Kysely, for the hot paths with a faster form of their own (db/engine.ts). */
  engine: Engine;
  close(): Promise<void>;
}

export type { Engine, Dialect } from './engine';
export { openSqlite } from './sqlite';

const DEFAULT_POSTGRES: PostgresOptions = { poolSize: 10, statementTimeoutMs: 30_000 };

/**
 * Opens the database DATABASE_URL names: `postgres://` or `postgresql://` is PostgreSQL; a file
 * path, `sqlite://path` or `file:path` is SQLite (the default).
 */
export function openDatabase(url: string, postgres: PostgresOptions = DEFAULT_POSTGRES): DbHandle {
  return isPostgresUrl(url) ? openPostgres(url, postgres) : openSqlite(sqlitePathFromUrl(url));
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  await migrate(db, (m) => m.migrateToLatest());
}

/** Up (or down) to the named migration: the tests of a migration start from the one before it. */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
  await migrate(db, (m) => m.migrateTo(name));
}

async function migrate(db: Kysely<Database>, run: (m: Migrator) => ReturnType<Migrator['migrateToLatest']>): Promise<void> {
  const { error, results } = await run(new Migrator({ db, provider }));
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

/** Turns a SQLite DATABASE_URL (or its default) into a file path. */
export function sqlitePathFromUrl(url: string): string {
  if (url.startsWith('sqlite://')) return url.slice('sqlite://'.length);
  if (url.startsWith('file:')) return url.slice('file:'.length);
  if (url.includes('://')) throw new Error(`DATABASE_URL: unsupported scheme in "${url}" (expected postgres://, sqlite:// or a file path)`);
  return url;
}
