import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '#db/errors';
import type { AppDeps } from '../context';
import { badRequest, conflict } from '../http/errors';
import { readPaymentSetting } from '../settings/payment-secrets';
import { captureAndActivate } from './capture';
import { writeTx } from '../changes/write-tx';
import { findPendingAccount, paymentNotConfigured } from './pending-account';
import { paymentSignatureValid } from './signatures';
import type { PaymentConfirmed, PaymentVerifyRequest, SandboxCompleteRequest } from '#sync/rest-api/payments';

const done: PaymentConfirmed = { status: 'captured', account_status: 'active' };

const alreadyPaid = () => conflict('This order was already paid with another payment.', 'already_paid');

const notYourOrder = () => badRequest('This order does not belong to this account.', 'order_mismatch');

async function orderOf(deps: AppDeps, orderId: string, userId: string) {
  const payment = await deps.db
    .selectFrom('payments')
    .select(['id', 'user_id', 'provider', 'order_id', 'payment_id', 'status'])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  // Someone else's order and an unknown one answer alike.
  if (!payment || payment.user_id !== userId) throw notYourOrder();
  return payment;
}

/**
 * Checkout's handler hands back (payment id, order id, signature). The signature is checked over
 * the order id WE stored for this account, so a signature for anyone else's order, a forged one, or
 * one replayed onto another order fails. Replaying the same confirmation is harmless.
 */
export async function verifyRazorpayPayment(deps: AppDeps, body: PaymentVerifyRequest): Promise<PaymentConfirmed> {
  const payment = await orderOf(deps, body.order_id, body.user_id);
  if (payment.provider !== 'razorpay') throw notYourOrder();
  const settings = await readPaymentSetting(deps.db, deps.secrets);
  if (!settings.razorpay_key_secret) throw paymentNotConfigured();
  if (!paymentSignatureValid(payment.order_id, body.payment_id, body.signature, settings.razorpay_key_secret)) {
    throw badRequest('The payment signature is not valid.', 'invalid_signature');
  }
  if (payment.status === 'captured') {
    if (payment.payment_id !== body.payment_id) throw alreadyPaid();
    return done;
  }
  try {
    await writeTx(deps, async (trx, changes) => {
      if ((await captureAndActivate(trx, changes, payment, body.payment_id)).newlyCaptured) return;
      // Captured since we read it (a concurrent confirmation or the webhook): a replay of the same
      // payment is done, another payment is the conflict it would have been a moment later.
      const now = await trx.selectFrom('payments').select('payment_id').where('id', '=', payment.id).executeTakeFirst();
      if (now?.payment_id !== body.payment_id) throw alreadyPaid();
    });
  } catch (err) {
    // payments.payment_id is unique: one Razorpay payment can never pay two orders.
    if (isUniqueViolation(err)) throw conflict('This payment was already used for another order.', 'payment_reused');
    throw err;
  }
  return done;
}

/**
 * Test mode (docs/decisions/0007-entry-fee-razorpay-and-sandbox.md): completes a sandbox order without money, only while
 * the sandbox is the chosen provider.
 */
export async function completeSandboxPayment(deps: AppDeps, body: SandboxCompleteRequest): Promise<PaymentConfirmed> {
  const payment = await orderOf(deps, body.order_id, body.user_id);
  if (payment.status === 'captured') return done;
  await findPendingAccount(deps.db, body.user_id, body.email);
  if (payment.provider !== 'sandbox') throw notYourOrder();
  const settings = await readPaymentSetting(deps.db, deps.secrets);
  if (settings.provider !== 'sandbox') throw paymentNotConfigured();
  await writeTx(deps, (trx, changes) => captureAndActivate(trx, changes, payment, `sandbox_pay_${randomUUID().replaceAll('-', '')}`));
  return done;
}
