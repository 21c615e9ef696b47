import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '#db/schema';
import type { AppDeps } from '../context';
import { badRequest } from '../http/errors';
import { readPaymentSetting } from '../settings/payment-secrets';
import { captureAndActivate } from './capture';
import { writeTx } from '../changes/write-tx';
import type { Changes } from '../changes/changes';
import { paymentNotConfigured } from './pending-account';
import { webhookSignatureValid } from './signatures';

const PaymentEntity = z.object({ id: z.string(), order_id: z.string().nullable().optional(), amount: z.number().optional(), status: z.string().optional() });
const Event = z.object({
  event: z.string(),
  payload: z
    .object({
      payment: z.object({ entity: PaymentEntity }).optional(),
      order: z.object({ entity: z.object({ id: z.string() }) }).optional(),
    })
    .default({}),
});

export type WebhookOutcome = 'captured' | 'already_captured' | 'failed_recorded' | 'duplicate' | 'ignored';

/**
 * A Razorpay webhook delivery. The signature is checked over the bytes exactly as received (a
 * re-serialised body does not match). Each event id is handled once: the id is recorded in the same
 * transaction as its effect, so a redelivery after a crash is processed, and after success ignored.
 * Events may arrive in any order; a payment once captured stays captured.
 */
export async function handleRazorpayWebhook(
  deps: AppDeps,
  rawBody: Buffer,
  headers: { signature?: string | undefined; eventId?: string | undefined },
): Promise<WebhookOutcome> {
  const settings = await readPaymentSetting(deps.db, deps.secrets);
  if (!settings.razorpay_webhook_secret) throw paymentNotConfigured();
  if (!headers.signature || !webhookSignatureValid(rawBody, headers.signature, settings.razorpay_webhook_secret)) {
    throw badRequest('The webhook signature is not valid.', 'invalid_signature');
  }
  const eventId = headers.eventId?.trim();
  if (!eventId || eventId.length > 100) throw badRequest('The x-razorpay-event-id header is missing.', 'missing_event_id');

  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw badRequest('The webhook body is not JSON.');
  }
  const parsed = Event.safeParse(json);
  if (!parsed.success) throw badRequest('The webhook body is not a Razorpay event.');
  const event = parsed.data;
  return writeTx(deps, async (trx, changes): Promise<WebhookOutcome> => {
    const now = changes.now;
    const seen = await trx
      .insertInto('webhook_events')
      .values({ event_id: eventId, provider: 'razorpay', event_type: event.event, received_at: now })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .executeTakeFirst();
    if (Number(seen.numInsertedOrUpdatedRows ?? 0) === 0) return 'duplicate';

    const paymentEntity = event.payload.payment?.entity;
    const orderId = paymentEntity?.order_id ?? event.payload.order?.entity.id;
    if (!orderId) return 'ignored';
    const payment = await trx
      .selectFrom('payments')
      .select(['id', 'user_id', 'status', 'amount_paise'])
      .where('order_id', '=', orderId)
      .where('provider', '=', 'razorpay')
      .executeTakeFirst();
    if (!payment) return 'ignored';

    if (event.event === 'payment.captured' || event.event === 'order.paid') {
      if (!paymentEntity) return 'ignored';
      if (paymentEntity.amount !== undefined && paymentEntity.amount !== Number(payment.amount_paise)) {
        deps.log.error(`razorpay webhook ${eventId}: amount ${paymentEntity.amount} does not match order ${orderId}`);
        return 'ignored';
      }
      return capture(trx, changes, payment, paymentEntity.id);
    }
    if (event.event === 'payment.failed') {
      // Only an open order is marked failed; a later success (another attempt) still captures it.
      await trx.updateTable('payments').set({ status: 'failed' }).where('id', '=', payment.id).where('status', '=', 'created').execute();
      return 'failed_recorded';
    }
    return 'ignored';
  });
}

async function capture(
  trx: Transaction<Database>,
  changes: Changes,
  payment: { id: string; user_id: string; status: string },
  paymentId: string,
): Promise<WebhookOutcome> {
  // Captured before: the account may still need activating if an earlier attempt was interrupted; harmless otherwise.
  // The outcome is the UPDATE's, not the status read above: a confirmation may have captured it since.
  const { newlyCaptured } = await captureAndActivate(trx, changes, payment, paymentId);
  return newlyCaptured ? 'captured' : 'already_captured';
}
