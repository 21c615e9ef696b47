import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { ApiError, conflict, forbidden } from '../http/errors';

export interface PendingAccount {
  id: string;
  email: string;
  name: string;
}

/**
 * The unpaid account cannot sign in, so payment calls are authorised by the pair (account id,
 * e-mail): the id is a random UUID only the person who signed up (or who logged in with the
 * password) has been told. Unknown id and wrong e-mail answer alike.
 */
export async function findPendingAccount(db: Kysely<Database> | Transaction<Database>, userId: string, email: string): Promise<PendingAccount> {
  const row = await db.selectFrom('profiles').select(['id', 'email', 'name', 'is_active', 'account_status']).where('id', '=', userId).executeTakeFirst();
  if (!row || row.email.toLowerCase() !== email.trim().toLowerCase()) {
    throw new ApiError(404, 'account_not_found', 'No account is waiting for payment with these details. Please sign up again.');
  }
  if (!row.is_active) throw forbidden('Your account is suspended.', 'account_suspended');
  if (row.account_status !== 'pending_payment') throw conflict('This account is already paid for. Please sign in.', 'already_paid');
  return { id: row.id, email: row.email, name: row.name };
}

export const paymentNotConfigured = () => new ApiError(409, 'payment_not_configured', 'Payment not configured');
