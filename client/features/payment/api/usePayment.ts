import { useEffect, useState } from 'react';
import { CheckoutClosed, payWithCheckout } from './razorpay-checkout';
import { paymentApi, type PaymentSummary, type PendingAccount } from './payment-client';
import { ApiError } from '#client/lib/http/api-error';
import { clearPendingPayment, readPendingPayment } from './pending';

export { readPendingPayment } from './pending';
export { ApiError } from '#client/lib/http/api-error';
export type { PaymentSummary } from './payment-client';

export type SummaryState = { status: 'loading' } | { status: 'ready'; summary: PaymentSummary } | { status: 'error'; error: ApiError };

/** The order summary for the remembered unpaid account. */
export function usePaymentSummary(account: PendingAccount | null): SummaryState {
  const [state, setState] = useState<SummaryState>({ status: 'loading' });
  const userId = account?.user_id;
  const email = account?.email;
  useEffect(() => {
    if (!userId || !email) return;
    let current = true;
    paymentApi.summary({ user_id: userId, email }).then(
      (summary) => current && setState({ status: 'ready', summary }),
      (e: unknown) =>
        current && setState({ status: 'error', error: e instanceof ApiError ? e : new ApiError(0, 'unknown', 'Something went wrong. Please try again.') }),
    );
    return () => {
      current = false;
    };
  }, [userId, email]);
  return state;
}

/** 'paid': the account is active. 'cancelled': the buyer closed Checkout (nothing to report). Errors throw. */
export type PayOutcome = 'paid' | 'cancelled';

/**
 * Pays the entry fee: creates the order on the server (amount from its settings), then either
 * opens Razorpay Checkout and has the server verify the signature, or completes the sandbox order.
 */
export async function payEntryFee(): Promise<PayOutcome> {
  const account = readPendingPayment();
  if (!account) throw new ApiError(404, 'account_not_found', 'No sign-up is waiting for payment. Please sign up again.');
  const order = await paymentApi.order(account);
  const orderId = order.order_id;
  if (order.provider === 'none' || !orderId) {
    clearPendingPayment();
    return 'paid';
  }
  if (order.provider === 'sandbox') {
    await paymentApi.completeSandbox(account, orderId);
  } else {
    if (!order.key_id) throw new ApiError(409, 'payment_not_configured', 'Payment not configured');
    let result;
    try {
      result = await payWithCheckout({ keyId: order.key_id, orderId, amountPaise: order.amount_paise, name: order.name, email: order.email });
    } catch (e) {
      if (e instanceof CheckoutClosed) return 'cancelled';
      throw e;
    }
    await verifyWithRetry(() =>
      paymentApi.verify(account, { order_id: orderId, payment_id: result.razorpay_payment_id, signature: result.razorpay_signature }),
    );
  }
  clearPendingPayment();
  return 'paid';
}

/**
 * The money is already taken when Checkout succeeds: a lost confirmation must not send the buyer to
 * pay again, so network failures and server errors are retried (the server's verify is idempotent).
 */
async function verifyWithRetry(verify: () => Promise<unknown>): Promise<void> {
  const delays = [1000, 2000, 4000];
  for (let attempt = 0; ; attempt++) {
    try {
      await verify();
      return;
    } catch (e) {
      const retryable = e instanceof ApiError && (e.status === 0 || e.status >= 500);
      const delay = delays[attempt];
      if (!retryable || delay === undefined) throw e;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
