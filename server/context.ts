import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { Engine } from '#db/engine';
import type { Config } from './config';
import type { AccessTokens } from './auth/access-tokens';
import type { Mailer } from './mail/mailer';
import type { Logger } from './logger';
import type { Pokes } from './changes/pokes';
import type { LiveStreams } from './realtime/live-streams';
import type { SecretBox } from './settings/secret-box';
import type { ScryptParams } from './auth/password';
import type { MediaStore } from './storage/media-store';

/** Everything a router needs, built once at start-up and passed down (no module-level singletons). */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  /** SQLite or PostgreSQL under `db`, for the hot paths written for each (db/engine.ts). */
  engine: Engine;
  tokens: AccessTokens;
  mailer: Mailer;
  log: Logger;
  /** Live-update fan-out: notify after commit, and SSE connections pass it on. */
  pokes: Pokes;
  /** Open event streams by member and session: bounded per member, closed when a session ends. */
  liveStreams: LiveStreams;
  /** Encrypts provider secrets at rest (key from SECRETS_KEY or DATA_DIR/secrets.key, never the database). */
  secrets: SecretBox;
  /** Media bytes: DATA_DIR/media or an S3 bucket (server/storage/media-store.ts). */
  media: MediaStore;
  /** Milliseconds since the epoch; replaceable in tests that need to move time. */
  now: () => number;
  /**
   * The scrypt cost of the hashes the app makes: PASSWORD_PARAMS (decision 0005). Only tests make it
   * cheaper, for suites that are not about the hash: an in-process test app (tests/helpers/test-app.ts)
   * passes one, a spawned browser-test server is given PASSWORD_HASH_LOG2N under NODE_ENV=test.
   */
  passwordParams: ScryptParams;
}

/** The signed-in caller, set by requireUser. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  /** The session (refresh-token family) the access token belongs to, when the token names one. */
  sessionId?: string | undefined;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user: AuthUser;
  };
}
