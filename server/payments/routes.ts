import { createRoute, z } from '@hono/zod-openapi';
import { isUniqueViolation } from '#db/errors';
import { createRouter } from '../http/router';
import { errorResponses } from '../http/openapi-helpers';
import { conflict } from '../http/errors';
import { createOrder, paymentSummary } from './orders';
import { completeSandboxPayment, verifyRazorpayPayment } from './confirm';
import { handleRazorpayWebhook } from './webhook';
import { PaymentConfirmed, PaymentOrder, PaymentOrderRequest, PaymentSummary, PaymentVerifyRequest, SandboxCompleteRequest } from '#sync/rest-api/payments';

const json = <T>(schema: T) => ({ 'application/json': { schema } });

const summary = createRoute({
  method: 'post',
  path: '/summary',
  tags: ['payments'],
  summary: 'The order summary for an unpaid account (fee, provider kind, name, e-mail) without creating an order',
  request: { body: { required: true, content: json(PaymentOrderRequest) } },
  responses: { 200: { description: 'The summary.', content: json(PaymentSummary) }, ...errorResponses(400, 403, 404, 409) },
});

const order = createRoute({
  method: 'post',
  path: '/order',
  tags: ['payments'],
  summary: 'Start paying the entry fee for an unpaid account (no sign-in: the account cannot sign in yet)',
  description:
    "Authorised by the account id and its e-mail. The amount comes from the server's settings. provider 'none' means the fee no longer applies and the account was activated.",
  request: { body: { required: true, content: json(PaymentOrderRequest) } },
  responses: { 200: { description: 'An order to pay.', content: json(PaymentOrder) }, ...errorResponses(400, 403, 404, 409, 429, 502) },
});

const verify = createRoute({
  method: 'post',
  path: '/verify',
  tags: ['payments'],
  summary: 'Confirm a Razorpay Checkout payment with its signature; activates the account',
  request: { body: { required: true, content: json(PaymentVerifyRequest) } },
  responses: { 200: { description: 'Paid; the account is active.', content: json(PaymentConfirmed) }, ...errorResponses(400, 409) },
});

const sandbox = createRoute({
  method: 'post',
  path: '/sandbox/complete',
  tags: ['payments'],
  summary: 'Test mode: complete a sandbox order without money',
  request: { body: { required: true, content: json(SandboxCompleteRequest) } },
  responses: { 200: { description: 'Paid; the account is active.', content: json(PaymentConfirmed) }, ...errorResponses(400, 403, 404, 409) },
});

// No request body schema on purpose: validating it would parse (and cache) the JSON, and the
// signature must be checked over the raw bytes.
const webhook = createRoute({
  method: 'post',
  path: '/webhook/razorpay',
  tags: ['payments'],
  summary: 'Razorpay webhook (payment.captured, order.paid, payment.failed)',
  description: 'X-Razorpay-Signature = HMAC-SHA256(raw body, webhook secret). Deduplicated by X-Razorpay-Event-Id.',
  responses: {
    200: { description: 'Handled (or a duplicate, ignored).', content: json(z.object({ status: z.string() })) },
    ...errorResponses(400, 409),
  },
});

function mapUniqueViolation(err: unknown): never {
  if (isUniqueViolation(err)) {
    throw conflict('This payment was already used for another order.', 'payment_reused');
  }
  throw err;
}

export function paymentsRouter() {
  return createRouter()
    .openapi(summary, async (c) => {
      const { user_id, email } = c.req.valid('json');
      return c.json(await paymentSummary(c.var.deps, user_id, email), 200);
    })
    .openapi(order, async (c) => {
      const { user_id, email } = c.req.valid('json');
      return c.json(await createOrder(c.var.deps, user_id, email), 200);
    })
    .openapi(verify, async (c) => c.json(await verifyRazorpayPayment(c.var.deps, c.req.valid('json')), 200))
    .openapi(sandbox, async (c) => c.json(await completeSandboxPayment(c.var.deps, c.req.valid('json')), 200))
    .openapi(webhook, async (c) => {
      const raw = Buffer.from(await c.req.arrayBuffer());
      const status = await handleRazorpayWebhook(c.var.deps, raw, {
        signature: c.req.header('x-razorpay-signature'),
        eventId: c.req.header('x-razorpay-event-id'),
      }).catch(mapUniqueViolation);
      return c.json({ status }, 200);
    });
}
