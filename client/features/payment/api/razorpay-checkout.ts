// Razorpay Checkout (https://razorpay.com/docs/payments/payment-gateway/web-integration/standard/):
// the script adds window.Razorpay; the handler receives the payment id, order id and signature that the
// server verifies.

const CHECKOUT_SRC = 'https://checkout.razorpay.com/v1/checkout.js';

export interface CheckoutSuccess {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

interface CheckoutOptions {
  key: string;
  order_id: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  prefill: { name: string; email: string };
  theme: { color: string };
  handler(response: CheckoutSuccess): void;
  modal: { ondismiss(): void; escape: boolean };
}

interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', cb: (response: { error?: { description?: string } }) => void): void;
}

declare global {
  interface Window {
    Razorpay?: new (options: CheckoutOptions) => RazorpayInstance;
  }
}

export class CheckoutClosed extends Error {
  constructor() {
    super('The payment window was closed.');
    this.name = 'CheckoutClosed';
  }
}

let loading: Promise<void> | null = null;

export function loadCheckoutScript(): Promise<void> {
  if (window.Razorpay) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = CHECKOUT_SRC;
    s.async = true;
    s.onload = () => (window.Razorpay ? resolve() : reject(new Error('Razorpay Checkout did not load.')));
    s.onerror = () => {
      s.remove();
      loading = null;
      reject(new Error('Razorpay Checkout could not be loaded.'));
    };
    document.head.appendChild(s);
  });
  return loading;
}

/** Opens Checkout for one order; resolves with what the server must verify, rejects when it fails or is closed. */
export async function payWithCheckout(o: { keyId: string; orderId: string; amountPaise: number; name: string; email: string }): Promise<CheckoutSuccess> {
  await loadCheckoutScript();
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new Error('Razorpay Checkout did not load.');
  return new Promise<CheckoutSuccess>((resolve, reject) => {
    const rzp = new Razorpay({
      key: o.keyId,
      order_id: o.orderId,
      amount: o.amountPaise,
      currency: 'INR',
      name: 'Vidi',
      description: 'Entry fee',
      prefill: { name: o.name, email: o.email },
      theme: { color: '#7c3aed' },
      handler: resolve,
      modal: { ondismiss: () => reject(new CheckoutClosed()), escape: true },
    });
    rzp.on('payment.failed', (r) => reject(new Error(r.error?.description ?? 'The payment failed.')));
    rzp.open();
  });
}
