import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the parts of Razorpay the server talks to, on loopback: the Orders API
 * (POST /v1/orders with HTTP Basic key_id:key_secret), plus helpers that sign a Checkout payment
 * and a webhook delivery exactly the way Razorpay does.
 */
export interface RazorpayOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string;
  status: string;
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
}

export interface RazorpayStandIn {
  url: string;
  keyId: string;
  keySecret: string;
  orders: Map<string, RazorpayOrder>;
  /** Every request to /v1/orders, including refused ones. */
  requests: Array<{ authorized: boolean; body: unknown }>;
  /** What Checkout's handler receives after a successful payment of `orderId`. */
  pay(orderId: string): { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string };
  close(): Promise<void>;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(7).toString('hex').slice(0, 14)}`;

export function signPayment(orderId: string, paymentId: string, keySecret: string): string {
  return createHmac('sha256', keySecret).update(`${orderId}|${paymentId}`).digest('hex');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startRazorpayStandIn(opts: { keyId?: string; keySecret?: string } = {}): Promise<RazorpayStandIn> {
  const keyId = opts.keyId ?? `rzp_test_${randomBytes(6).toString('hex')}`;
  const keySecret = opts.keySecret ?? randomBytes(12).toString('hex');
  const orders = new Map<string, RazorpayOrder>();
  const requests: RazorpayStandIn['requests'] = [];
  const expectedAuth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/orders')
        return send(404, { error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' } });
      const text = await readBody(req);
      const authorized = req.headers.authorization === expectedAuth;
      let body: { amount?: unknown; currency?: unknown; receipt?: unknown; notes?: unknown } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        // refused below
      }
      requests.push({ authorized, body });
      if (!authorized) return send(401, { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } });
      if (typeof body.amount !== 'number' || !Number.isInteger(body.amount) || body.amount < 100 || body.currency !== 'INR') {
        return send(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be at least INR 1.00.' } });
      }
      const order: RazorpayOrder = {
        id: rid('order'),
        entity: 'order',
        amount: body.amount,
        amount_paid: 0,
        amount_due: body.amount,
        currency: 'INR',
        receipt: typeof body.receipt === 'string' ? body.receipt : '',
        status: 'created',
        attempts: 0,
        notes: (body.notes ?? {}) as Record<string, string>,
        created_at: Math.floor(Date.now() / 1000),
      };
      orders.set(order.id, order);
      send(200, order);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    keyId,
    keySecret,
    orders,
    requests,
    pay(orderId) {
      const order = orders.get(orderId);
      if (order) Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0, attempts: order.attempts + 1 });
      const paymentId = rid('pay');
      return { razorpay_payment_id: paymentId, razorpay_order_id: orderId, razorpay_signature: signPayment(orderId, paymentId, keySecret) };
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/**
 * A webhook delivery as Razorpay sends it: the JSON text (with "\/" escapes, as its encoder writes
 * them, so a parsed-and-re-serialised body differs from the signed bytes), the signature over
 * those exact bytes, and the event id header.
 */
export function razorpayWebhook(
  webhookSecret: string,
  event: 'payment.captured' | 'order.paid' | 'payment.failed' | 'payment.authorized',
  p: { orderId: string; paymentId: string; amount: number; eventId?: string },
): { body: string; headers: Record<string, string> } {
  const payment = {
    id: p.paymentId,
    entity: 'payment',
    amount: p.amount,
    currency: 'INR',
    status: event === 'payment.failed' ? 'failed' : event === 'payment.authorized' ? 'authorized' : 'captured',
    order_id: p.orderId,
    method: 'upi',
    description: 'Vidi entry fee',
    notes: { source: 'https://vidi.example/payment' },
    created_at: Math.floor(Date.now() / 1000),
  };
  const payload: Record<string, unknown> = { payment: { entity: payment } };
  if (event === 'order.paid') payload.order = { entity: { id: p.orderId, entity: 'order', amount: p.amount, amount_paid: p.amount, status: 'paid' } };
  const envelope = {
    entity: 'event',
    account_id: 'acc_standin0001',
    event,
    contains: Object.keys(payload),
    payload,
    created_at: Math.floor(Date.now() / 1000),
  };
  const body = JSON.stringify(envelope).replaceAll('/', '\\/');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': createHmac('sha256', webhookSecret).update(body).digest('hex'),
      'x-razorpay-event-id': p.eventId ?? rid('evt'),
    },
  };
}
