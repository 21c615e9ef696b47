import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { Changes } from '../changes/changes';
import { onUserReactivated } from '../rewards/member-status';
import { eligibleUsers } from '../rewards/score-events';

/**
 * Marks a payment captured and activates its account, in the caller's transaction. Idempotent and
 * monotonic: a captured payment is never touched again (so its payment id and time stay those of
 * the first confirmation), and only a 'pending_payment' account is activated, once.
 */
export async function captureAndActivate(
  trx: Transaction<Database>,
  changes: Changes,
  payment: { id: string; user_id: string },
  paymentId: string,
): Promise<{ newlyCaptured: boolean; activated: boolean }> {
  const now = changes.now;
  const captured = await trx
    .updateTable('payments')
    .set({ status: 'captured', payment_id: paymentId, captured_at: now })
    .where('id', '=', payment.id)
    .where('status', '!=', 'captured')
    .executeTakeFirst();
  const activated = await trx
    .updateTable('profiles')
    .set({ account_status: 'active', updated_at: now })
    .where('id', '=', payment.user_id)
    .where('account_status', '=', 'pending_payment')
    .executeTakeFirst();
  const didActivate = Number(activated.numUpdatedRows) > 0;
  if (didActivate) await accountActivated(trx, changes, payment.user_id);
  return { newlyCaptured: Number(captured.numUpdatedRows) > 0, activated: didActivate };
}

/** After an unpaid account became active: sync sees the new status, and the member starts counting on the leaderboards. */
export async function accountActivated(trx: Transaction<Database>, changes: Changes, userId: string): Promise<void> {
  changes.profile(userId);
  // A suspended account stays ineligible until it is reactivated.
  if ((await eligibleUsers(trx, [userId])).size) await onUserReactivated(trx, userId, changes);
}
