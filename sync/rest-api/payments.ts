import * as z from 'zod';
import { PaymentProvider } from './settings';

// The /api/payments bodies and answers. An unpaid account cannot sign in, so its account id and
// e-mail identify it (docs/decisions/0007-entry-fee-razorpay-and-sandbox.md).

const AccountId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not an account id.');
const Email = z.string().trim().min(3).max(254);
const ProviderId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_]+$/, 'Not a valid id.');

/** The body of /summary and /order: the unpaid account that is paying. */
export const PaymentOrderRequest = z.strictObject({ user_id: AccountId, email: Email }).meta({ id: 'PaymentOrderRequest' });
export type PaymentOrderRequest = z.infer<typeof PaymentOrderRequest>;

export const PaymentSummary = z
  .object({
    provider: PaymentProvider,
    amount_rupees: z.number().int(),
    /** False when the fee is on but the provider lacks its keys: the page shows 'Payment not configured'. */
    configured: z.boolean(),
    fee_applies: z.boolean(),
    name: z.string(),
    email: z.string(),
  })
  .meta({ id: 'PaymentSummary' });
export type PaymentSummary = z.infer<typeof PaymentSummary>;

export const PaymentOrder = z
  .object({
    /** 'none': the fee no longer applies, and the account was activated without a payment. */
    provider: z.enum(['razorpay', 'sandbox', 'none']),
    key_id: z.string().nullable(),
    order_id: z.string().nullable(),
    amount_paise: z.number().int(),
    currency: z.literal('INR'),
    name: z.string(),
    email: z.string(),
  })
  .meta({ id: 'PaymentOrder' });
export type PaymentOrder = z.infer<typeof PaymentOrder>;

export const PaymentVerifyRequest = z
  .strictObject({ user_id: AccountId, order_id: ProviderId, payment_id: ProviderId, signature: z.string().min(1).max(200) })
  .meta({ id: 'PaymentVerifyRequest' });
export type PaymentVerifyRequest = z.infer<typeof PaymentVerifyRequest>;

export const SandboxCompleteRequest = z.strictObject({ user_id: AccountId, email: Email, order_id: ProviderId }).meta({ id: 'SandboxCompleteRequest' });
export type SandboxCompleteRequest = z.infer<typeof SandboxCompleteRequest>;

export const PaymentConfirmed = z.object({ status: z.literal('captured'), account_status: z.literal('active') }).meta({ id: 'PaymentConfirmed' });
export type PaymentConfirmed = z.infer<typeof PaymentConfirmed>;
