import type { Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database } from '../db/schema';
import type { Config } from './config';
import type { AccessTokens } from './auth/access-tokens';
import type { Mailer } from './mail/mailer';
import type { Logger } from './logger';
import type { Pokes } from './realtime/pokes';

/** Everything a router needs, built once at start-up and passed down (no module-level singletons). */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  sqlite: SQLite.Database;
  tokens: AccessTokens;
  mailer: Mailer;
  log: Logger;
  /** Live-update fan-out: notify after commit, and SSE connections pass it on. */
  pokes: Pokes;
  /** Milliseconds since the epoch; replaceable in tests that need to move time. */
  now: () => number;
}

/** The signed-in caller, set by requireUser. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user: AuthUser;
  };
}
