import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(secret: string, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** Constant-time comparison of a hex signature; anything that is not same-length hex is simply false. */
export function signatureMatches(expectedHex: string, given: string): boolean {
  if (!/^[0-9a-f]+$/i.test(given) || given.length !== expectedHex.length) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(given.toLowerCase(), 'hex'));
}

/** Razorpay Checkout's payment signature: HMAC-SHA256(order_id + "|" + payment_id, key_secret). */
export function paymentSignatureValid(orderId: string, paymentId: string, signature: string, keySecret: string): boolean {
  return signatureMatches(hmacSha256Hex(keySecret, `${orderId}|${paymentId}`), signature);
}

/** X-Razorpay-Signature: HMAC-SHA256 of the raw request body, exactly as received, with the webhook secret. */
export function webhookSignatureValid(rawBody: Buffer, signature: string, webhookSecret: string): boolean {
  return signatureMatches(hmacSha256Hex(webhookSecret, rawBody), signature);
}
