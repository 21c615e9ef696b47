// Decisions: only the account id and e-mail of an unpaid sign-up are remembered (never the password).
export const PENDING_PAYMENT_KEY = 'vidi.pendingPayment';

export interface PendingPayment {
  user_id: string;
  email: string;
  name: string;
}

export function rememberPendingPayment(p: PendingPayment): void {
  try {
    localStorage.setItem(PENDING_PAYMENT_KEY, JSON.stringify(p));
  } catch {
    // Without storage the payment page asks to sign up again.
  }
}

export function clearPendingPayment(): void {
  try {
    localStorage.removeItem(PENDING_PAYMENT_KEY);
  } catch {
    // nothing to clear
  }
}
