import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { ProfilesTable } from '#db/schema';
import { perConnection } from '#db/per-connection';
import type { AppDeps, AuthUser } from '../context';
import { forbidden, unauthorized } from '../http/errors';

const sessionExpired = () => unauthorized('Your session has expired. Please sign in again.', 'invalid_token');

/**
 * Whether the session (refresh-token family) an access token names is still open: logout, logout
 * everywhere, a password reset or change and a suspension revoke the family, and its access tokens
 * stop working with it instead of living out their 15 minutes. Tokens issued without a session
 * (before sessions were named) have nothing to look up and are left to their expiry.
 */
export async function sessionIsLive(deps: Pick<AppDeps, 'db' | 'engine'>, sessionId: string | undefined): Promise<boolean> {
  if (sessionId === undefined) return true;
  if (deps.engine.dialect === 'sqlite') return liveSessionStatement(deps.engine.sqlite).get(sessionId) !== undefined;
  const { rows } = await sql<{ live: number }>`SELECT 1 AS live FROM refresh_tokens WHERE family_id = ${sessionId} AND revoked_at IS NULL LIMIT 1`.execute(
    deps.db,
  );
  return rows.length > 0;
}

// Runs on every authenticated request: prepared once per connection.
const statements = new WeakMap<SQLite.Database, SQLite.Statement<[string], { live: number }>>();
function liveSessionStatement(sqlite: SQLite.Database): SQLite.Statement<[string], { live: number }> {
  let stmt = statements.get(sqlite);
  if (!stmt) {
    stmt = sqlite.prepare<[string], { live: number }>('SELECT 1 AS live FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NULL LIMIT 1');
    statements.set(sqlite, stmt);
  }
  return stmt;
}

type Caller = Pick<ProfilesTable, 'id' | 'email' | 'name' | 'is_admin' | 'is_active' | 'account_status'> & {
  /** Whether the token's session is open (true for a token without one), read with the profile. */
  live: boolean;
};

// The caller's profile and session in one statement, as on PostgreSQL (readCaller). A fixed text
// prepared once per connection: built and compiled by Kysely on every request it cost about as much
// CPU as the read itself under the mixed load (docs/benchmarks.md, "Mixed load").
const CALLER_SQLITE = `SELECT id, email, name, is_admin, is_active, account_status,
  (@session IS NULL OR EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = @session AND revoked_at IS NULL)) AS live
  FROM profiles WHERE id = @user`;
const callerStatement = perConnection((sqlite) =>
  sqlite.prepare<{ user: string; session: string | null }, Omit<Caller, 'live'> & { live: number }>(CALLER_SQLITE),
);

/**
 * The profile and the session's state in one statement: on PostgreSQL each statement is a round
 * trip, and this runs on every authenticated request. On SQLite the read holds Kysely's connection,
 * so it never sees another request's open transaction (server/feed/items.ts, readVia).
 */
async function readCaller(deps: AppDeps, userId: string, sessionId: string | undefined): Promise<Caller | undefined> {
  const { engine } = deps;
  if (engine.dialect === 'postgres') {
    const { rows } = await sql<Caller>`SELECT id, email, name, is_admin, is_active, account_status,
      (${sessionId ?? null}::text IS NULL OR EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ${sessionId ?? null} AND revoked_at IS NULL)) AS live
      FROM profiles WHERE id = ${userId}`.execute(deps.db);
    return rows[0];
  }
  const stmt = callerStatement(engine.sqlite);
  const row = await deps.db.connection().execute(async () => stmt.get({ user: userId, session: sessionId ?? null }));
  return row && { ...row, live: row.live === 1 };
}

/**
 * The caller of a bearer token, with the rules every entry point applies (requireUser, tus
 * uploads): a valid token of an open session, of an active and paid-up account. The profile is
 * read on every request so a suspension takes effect at once, not at token expiry.
 */
export async function userOfAccessToken(deps: AppDeps, token: string): Promise<AuthUser> {
  const claims = await deps.tokens.verifyClaims(token);
  if (!claims) throw sessionExpired();
  const profile = await readCaller(deps, claims.userId, claims.sessionId);
  if (!profile) throw sessionExpired();
  if (!profile.is_active) throw forbidden('Your account is suspended.', 'account_suspended');
  if (profile.account_status === 'pending_payment') throw forbidden('Complete the entry fee payment first.', 'payment_required');
  // After the account checks: a suspension also revokes the sessions, and the member should hear why.
  if (!profile.live) throw sessionExpired();
  return { id: profile.id, email: profile.email, name: profile.name, isAdmin: profile.is_admin === 1, sessionId: claims.sessionId };
}
