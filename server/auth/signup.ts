import { randomUUID } from 'node:crypto';
import type { SignupBody, SignupResponse } from '../../sync/api/auth';
import type { AppDeps } from '../context';
import { conflict } from '../http/errors';
import { feeApplies, readEntryFee } from '../settings/entry-fee';
import { createVerificationToken, sendVerificationMail } from './email-verification';
import { hashPassword } from './password';

const emailTaken = () => conflict('An account with this email already exists.', 'email_taken');

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && String((err as { code: unknown }).code).startsWith('SQLITE_CONSTRAINT');
}

/**
 * Creates the account (unverified; 'pending_payment' while an entry fee applies), its credentials
 * and a verification token in one transaction, then mails the link.
 */
export async function signUp(deps: AppDeps, body: SignupBody): Promise<SignupResponse> {
  const existing = await deps.db.selectFrom('profiles').select('id').where('email', '=', body.email).executeTakeFirst();
  if (existing) throw emailTaken();

  // Hashed before the transaction: ~300 ms on the thread pool must not hold the database.
  const passwordHash = await hashPassword(body.password);
  const id = randomUUID();
  let token: string;
  let status: 'active' | 'pending_payment';
  try {
    ({ token, status } = await deps.db.transaction().execute(async (trx) => {
      const now = deps.now();
      const accountStatus = feeApplies(await readEntryFee(trx)) ? ('pending_payment' as const) : ('active' as const);
      await trx
        .insertInto('profiles')
        .values({ id, email: body.email, name: body.name, is_admin: 0, is_active: 1, account_status: accountStatus, email_verified_at: null, created_at: now, updated_at: now })
        .execute();
      await trx.insertInto('credentials').values({ user_id: id, password_hash: passwordHash, updated_at: now }).execute();
      return { token: await createVerificationToken(trx, id, now), status: accountStatus };
    }));
  } catch (err) {
    // Two sign-ups with one address raced past the check above: the unique index decides.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  const sent = await sendVerificationMail(deps, { email: body.email, name: body.name }, token);
  return { user: { id, email: body.email, name: body.name, account_status: status }, verification_sent: sent };
}
