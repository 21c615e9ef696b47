// The payment calls of an unpaid account: no bearer token (it cannot sign in yet); the account id and
// e-mail remembered after sign-up identify it (docs/decisions/0007-entry-fee-razorpay-and-sandbox.md).

import { HttpClient } from '#client/lib/http/http-client';
import type { PaymentOrder, PaymentOrderRequest, PaymentSummary, PaymentVerifyRequest } from '#sync/rest-api/payments';

export type { PaymentSummary } from '#sync/rest-api/payments';

/** The unpaid account remembered after sign-up. */
export type PendingAccount = PaymentOrderRequest;

/** No bearer token: an unpaid account cannot sign in yet. A failure throws an ApiError. */
const http = new HttpClient();
const post = <T>(path: string, body: unknown) => http.json<T>('POST', path, body);

export const paymentApi = {
  summary: (a: PendingAccount) => post<PaymentSummary>('/api/payments/summary', { user_id: a.user_id, email: a.email }),
  order: (a: PendingAccount) => post<PaymentOrder>('/api/payments/order', { user_id: a.user_id, email: a.email }),
  verify: (a: PendingAccount, p: Omit<PaymentVerifyRequest, 'user_id'>) =>
    post<unknown>('/api/payments/verify', { user_id: a.user_id, order_id: p.order_id, payment_id: p.payment_id, signature: p.signature }),
  completeSandbox: (a: PendingAccount, orderId: string) =>
    post<unknown>('/api/payments/sandbox/complete', { user_id: a.user_id, email: a.email, order_id: orderId }),
};
