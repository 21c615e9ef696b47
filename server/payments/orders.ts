import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../context';
import { accountActivated } from './capture';
import { feeApplies, readEntryFee } from '../settings/entry-fee';
import { paymentSetting, providerConfigured } from '../settings/definitions';
import { readSetting } from '../settings/store';
import { findPendingAccount, paymentNotConfigured } from './pending-account';
import { createRazorpayOrder } from './razorpay-api';
import { tooManyRequests } from '../http/errors';
import type { PaymentOrder, PaymentSummary } from '../../sync/api/payments';

/** Orders one unpaid account may start per hour: each one is a call to the provider. */
export const MAX_ORDERS_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;

/** What /payment shows before anything is charged: no order is created just by opening the page. */
export async function paymentSummary(deps: AppDeps, userId: string, email: string): Promise<PaymentSummary> {
  const account = await findPendingAccount(deps.db, userId, email);
  const [fee, payment] = await Promise.all([readEntryFee(deps.db), readSetting(deps.db, paymentSetting)]);
  return {
    provider: payment.provider,
    amount_rupees: fee.amountRupees,
    configured: providerConfigured(payment),
    fee_applies: feeApplies(fee),
    name: account.name,
    email: account.email,
  };
}

/** Starts a payment for an unpaid account. The amount always comes from the server's settings. */
export async function createOrder(deps: AppDeps, userId: string, email: string): Promise<PaymentOrder> {
  const account = await findPendingAccount(deps.db, userId, email);
  const [fee, payment] = await Promise.all([readEntryFee(deps.db), readSetting(deps.db, paymentSetting)]);
  const base = { currency: 'INR' as const, name: account.name, email: account.email };

  if (!feeApplies(fee)) {
    // An admin switched the fee off after this sign-up: there is nothing left to pay.
    const now = deps.now();
    await deps.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('profiles')
        .set({ account_status: 'active', updated_at: now })
        .where('id', '=', account.id)
        .where('account_status', '=', 'pending_payment')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) > 0) await accountActivated(trx, account.id, now);
    });
    return { ...base, provider: 'none', key_id: null, order_id: null, amount_paise: 0 };
  }
  if (!providerConfigured(payment)) throw paymentNotConfigured();
  const recent = await deps.db
    .selectFrom('payments')
    .select(['created_at'])
    .where('user_id', '=', account.id)
    .where('created_at', '>', deps.now() - HOUR_MS)
    .orderBy('created_at', 'asc')
    .execute();
  const oldest = recent[0];
  if (recent.length >= MAX_ORDERS_PER_HOUR && oldest) {
    throw tooManyRequests((Number(oldest.created_at) + HOUR_MS - deps.now()) / 1000, 'Too many payment attempts. Please try again later.');
  }

  const amountPaise = fee.amountRupees * 100;
  let orderId: string;
  if (payment.provider === 'razorpay') {
    const order = await createRazorpayOrder(
      deps.config.razorpayApiBase,
      { keyId: payment.razorpay_key_id, keySecret: payment.razorpay_key_secret },
      { amountPaise, currency: 'INR', receipt: account.id },
    );
    orderId = order.id;
  } else {
    orderId = `sandbox_order_${randomUUID().replaceAll('-', '')}`;
  }
  await deps.db
    .insertInto('payments')
    .values({
      id: randomUUID(),
      user_id: account.id,
      provider: payment.provider,
      order_id: orderId,
      payment_id: null,
      amount_paise: amountPaise,
      currency: 'INR',
      status: 'created',
      created_at: deps.now(),
      captured_at: null,
    })
    .execute();
  return {
    ...base,
    provider: payment.provider,
    key_id: payment.provider === 'razorpay' ? payment.razorpay_key_id : null,
    order_id: orderId,
    amount_paise: amountPaise,
  };
}
