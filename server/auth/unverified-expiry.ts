import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { AppDeps } from '../context';

/** An address nobody confirmed within this time is free again: the account holding it is removed. */
export const UNVERIFIED_TTL_MS = 72 * 60 * 60 * 1000;
/** How often the server sweeps expired accounts (sign-up also replaces one on the spot). */
export const UNVERIFIED_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Removes unverified accounts older than 72 h (one address, or all), with everything that cascades
 * from them (credentials, tokens). Such an account could never sign in, so it holds no videos or
 * actions. One that paid the entry fee is kept: its owner paid, and a password reset (which
 * proves the mailbox) verifies it. Returns how many went.
 */
export async function expireUnverifiedAccounts(db: Db, now: number, email?: string): Promise<number> {
  let q = db
    .deleteFrom('profiles')
    .where('email_verified_at', 'is', null)
    .where('is_admin', '=', 0)
    .where('created_at', '<=', now - UNVERIFIED_TTL_MS)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('payments').select('payments.id').whereRef('payments.user_id', '=', 'profiles.id').where('payments.status', '=', 'captured'))),
    );
  if (email !== undefined) q = q.where('email', '=', email);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Starts the periodic sweep; returns the function that stops it (server shutdown). */
export function startUnverifiedSweep(deps: Pick<AppDeps, 'db' | 'now' | 'log'>): () => void {
  const sweep = () => {
    expireUnverifiedAccounts(deps.db, deps.now()).then(
      (n) => {
        if (n > 0) deps.log.info(`removed ${n} unverified account(s) older than 72 h`);
      },
      (err: unknown) => deps.log.error('unverified account sweep failed', err),
    );
  };
  sweep();
  const timer = setInterval(sweep, UNVERIFIED_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
