// The payment calls of an unpaid account: no bearer token (it cannot sign in yet); the account id and
// e-mail remembered after sign-up identify it (docs/decisions/0007-entry-fee-razorpay-and-sandbox.md).

import type { PaymentOrder, PaymentOrderRequest, PaymentSummary, PaymentVerifyRequest } from '#sync/rest-api/payments';

export type { PaymentSummary } from '#sync/rest-api/payments';

/** The unpaid account remembered after sign-up. */
export type PendingAccount = PaymentOrderRequest;

export class PaymentApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentApiError';
  }
}

async function post<T>(path: string, body: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new PaymentApiError(0, 'network', 'The server could not be reached. Check your connection and try again.');
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const err = (data as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    throw new PaymentApiError(
      res.status,
      typeof err?.code === 'string' ? err.code : 'unknown',
      typeof err?.message === 'string' ? err.message : 'Something went wrong. Please try again.',
    );
  }
  return data as T;
}

export const paymentApi = {
  summary: (a: PendingAccount) => post<PaymentSummary>('/api/payments/summary', { user_id: a.user_id, email: a.email }),
  order: (a: PendingAccount) => post<PaymentOrder>('/api/payments/order', { user_id: a.user_id, email: a.email }),
  verify: (a: PendingAccount, p: Omit<PaymentVerifyRequest, 'user_id'>) =>
    post<unknown>('/api/payments/verify', { user_id: a.user_id, order_id: p.order_id, payment_id: p.payment_id, signature: p.signature }),
  completeSandbox: (a: PendingAccount, orderId: string) =>
    post<unknown>('/api/payments/sandbox/complete', { user_id: a.user_id, email: a.email, order_id: orderId }),
};
