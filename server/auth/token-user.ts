import { sqliteOf } from '#db/engine';
import type SQLite from 'better-sqlite3';
import type { AppDeps, AuthUser } from '../context';
import { forbidden, unauthorized } from '../http/errors';

const sessionExpired = () => unauthorized('Your session has expired. Please sign in again.', 'invalid_token');

/**
 * Whether the session (refresh-token family) an access token names is still open: logout, logout
 * everywhere, a password reset or change and a suspension revoke the family, and its access tokens
 * stop working with it instead of living out their 15 minutes. Tokens issued without a session
 * (before sessions were named) have nothing to look up and are left to their expiry.
 */
export function sessionIsLive(sqlite: SQLite.Database, sessionId: string | undefined): boolean {
  if (sessionId === undefined) return true;
  return liveSessionStatement(sqlite).get(sessionId) !== undefined;
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

/**
 * The caller of a bearer token, with the rules every entry point applies (requireUser, tus
 * uploads): a valid token of an open session, of an active and paid-up account. The profile is
 * read on every request so a suspension takes effect at once, not at token expiry.
 */
export async function userOfAccessToken(deps: AppDeps, token: string): Promise<AuthUser> {
  const claims = await deps.tokens.verifyClaims(token);
  if (!claims) throw sessionExpired();
  const profile = await deps.db
    .selectFrom('profiles')
    .select(['id', 'email', 'name', 'is_admin', 'is_active', 'account_status'])
    .where('id', '=', claims.userId)
    .executeTakeFirst();
  if (!profile) throw sessionExpired();
  if (!profile.is_active) throw forbidden('Your account is suspended.', 'account_suspended');
  if (profile.account_status === 'pending_payment') throw forbidden('Complete the entry fee payment first.', 'payment_required');
  // After the account checks: a suspension also revokes the sessions, and the member should hear why.
  if (!sessionIsLive(sqliteOf(deps.engine), claims.sessionId)) throw sessionExpired();
  return { id: profile.id, email: profile.email, name: profile.name, isAdmin: profile.is_admin === 1, sessionId: claims.sessionId };
}
