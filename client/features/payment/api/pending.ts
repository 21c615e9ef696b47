import { PENDING_PAYMENT_KEY, type PendingPayment } from '#client/lib/session/pending-payment';

/** The unpaid sign-up remembered by the auth screens (account id, e-mail, name; never the password). */
export function readPendingPayment(): PendingPayment | null {
  try {
    const raw = localStorage.getItem(PENDING_PAYMENT_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<PendingPayment>;
    return typeof v.user_id === 'string' && typeof v.email === 'string'
      ? { user_id: v.user_id, email: v.email, name: typeof v.name === 'string' ? v.name : '' }
      : null;
  } catch {
    return null;
  }
}

export { clearPendingPayment } from '#client/lib/session/pending-payment';
