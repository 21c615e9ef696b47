import { z } from 'zod';
import { ApiError } from '../http/errors';

const OrderResponse = z.object({ id: z.string().min(1).max(100), amount: z.number().int(), currency: z.string() });

const providerError = (message: string) => new ApiError(502, 'payment_provider_error', message);

/**
 * Creates an order through Razorpay's Orders API (amount in paise). `apiBase` comes from
 * RAZORPAY_API_BASE so tests can point it at a stand-in on loopback.
 */
export async function createRazorpayOrder(
  apiBase: string,
  keys: { keyId: string; keySecret: string },
  order: { amountPaise: number; currency: 'INR'; receipt: string },
): Promise<{ id: string; amount: number; currency: string }> {
  let res: Response;
  try {
    res = await fetch(`${apiBase}/v1/orders`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${keys.keyId}:${keys.keySecret}`).toString('base64')}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ amount: order.amountPaise, currency: order.currency, receipt: order.receipt, notes: { account_id: order.receipt } }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw providerError('The payment provider could not be reached. Please try again.');
  }
  if (res.status === 401) throw providerError('The payment provider refused the configured keys.');
  if (!res.ok) throw providerError(`The payment provider could not create the order (HTTP ${res.status}).`);
  const parsed = OrderResponse.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw providerError('The payment provider gave an unexpected answer.');
  if (parsed.data.amount !== order.amountPaise) throw providerError('The payment provider created an order for a different amount.');
  return parsed.data;
}
