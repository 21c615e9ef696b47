import { randomUUID } from 'node:crypto';
import { lockMember } from '#db/locks';
import type { AppDeps } from '../context';
import { accountActivated } from './capture';
import { writeTx } from '../changes/write-tx';
import { feeApplies, readEntryFee } from '../settings/entry-fee';
import { providerConfigured } from '../settings/definitions';
import { readPaymentSetting } from '../settings/payment-secrets';
import { findPendingAccount, paymentNotConfigured } from './pending-account';
import { createRazorpayOrder } from './razorpay-api';
import { tooManyRequests } from '../http/errors';
import type { PaymentOrder, PaymentSummary } from '#sync/rest-api/payments';

/** Orders one unpaid account may start per hour: each one is a call to the provider. */
export const MAX_ORDERS_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;

/** What /payment shows before anything is charged: no order is created just by opening the page. */
export async function paymentSummary(deps: AppDeps, userId: string, email: string): Promise<PaymentSummary> {
  const account = await findPendingAccount(deps.db, userId, email);
  const [fee, payment] = await Promise.all([readEntryFee(deps.db), readPaymentSetting(deps.db, deps.secrets)]);
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
  const [fee, payment] = await Promise.all([readEntryFee(deps.db), readPaymentSetting(deps.db, deps.secrets)]);
  const base = { currency: 'INR' as const, name: account.name, email: account.email };

  if (!feeApplies(fee)) {
    // An admin switched the fee off after this sign-up: there is nothing left to pay.
    await writeTx(deps, async (trx, changes) => {
      const res = await trx
        .updateTable('profiles')
        .set({ account_status: 'active', updated_at: changes.now })
        .where('id', '=', account.id)
        .where('account_status', '=', 'pending_payment')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) > 0) await accountActivated(trx, changes, account.id);
    });
    return { ...base, provider: 'none', key_id: null, order_id: null, amount_paise: 0 };
  }
  if (!providerConfigured(payment)) throw paymentNotConfigured();
  const amountPaise = fee.amountRupees * 100;
  const slot = await reserveOrderSlot(deps, account.id, payment.provider, amountPaise);
  let orderId: string;
  try {
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
  } catch (err) {
    // No order came of it: the slot is given back, so a provider outage does not lock the member out.
    await deps.db.deleteFrom('payments').where('id', '=', slot).execute();
    throw err;
  }
  await deps.db.updateTable('payments').set({ order_id: orderId }).where('id', '=', slot).execute();
  return {
    ...base,
    provider: payment.provider,
    key_id: payment.provider === 'razorpay' ? payment.razorpay_key_id : null,
    order_id: orderId,
    amount_paise: amountPaise,
  };
}

/**
 * Counts the last hour's orders and takes a slot in one transaction, before the slow call to the
 * provider: of N parallel requests at most the limit get through (SQLite runs one transaction at a
 * time; on PostgreSQL the member's lock queues them, since a count cannot lock rows not yet there). The slot is a payment row under a placeholder order id that the
 * provider's id replaces.
 */
async function reserveOrderSlot(deps: AppDeps, userId: string, provider: 'razorpay' | 'sandbox', amountPaise: number): Promise<string> {
  const now = deps.now();
  const id = randomUUID();
  await deps.db.transaction().execute(async (trx) => {
    await lockMember(trx, userId);
    const recent = await trx
      .selectFrom('payments')
      .select(['created_at'])
      .where('user_id', '=', userId)
      .where('created_at', '>', now - HOUR_MS)
      .orderBy('created_at', 'asc')
      .execute();
    const oldest = recent[0];
    if (recent.length >= MAX_ORDERS_PER_HOUR && oldest) {
      throw tooManyRequests((Number(oldest.created_at) + HOUR_MS - now) / 1000, 'Too many payment attempts. Please try again later.');
    }
    await trx
      .insertInto('payments')
      .values({
        id,
        user_id: userId,
        provider,
        order_id: `reserved_${id}`,
        payment_id: null,
        amount_paise: amountPaise,
        currency: 'INR',
        status: 'created',
        created_at: now,
        captured_at: null,
      })
      .execute();
  });
  return id;
}
