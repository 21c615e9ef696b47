import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody } from './errors';

/**
 * A refused body is read and dropped up to this much past the limit before the answer goes out.
 * Answering while the client is still sending, then closing, makes the kernel reset the connection
 * (unread bytes in the receive buffer), and the client sees ECONNRESET instead of the 413. A body
 * declared larger than limit + this is not read: its sender gets the 413 and a closed connection.
 */
export const DRAIN_BYTES = 8 * 1024 * 1024;

type Reader = ReadableStreamDefaultReader<Uint8Array>;

/** Reads and drops the rest of a body, up to `budget` bytes; false when it had more. */
export async function drainBody(reader: Reader, budget: number): Promise<boolean> {
  let left = budget;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      left -= value.length;
      if (left < 0) {
        await reader.cancel();
        return false;
      }
    }
  } catch {
    return false;
  }
}

/**
 * An answer for a request whose body was not (wholly) read: `Connection: close`, so no client sends
 * its next request on a connection that still carries this body.
 */
export function closingAnswer(c: Context, status: ContentfulStatusCode, code: string, message: string): Response {
  return c.json(errorBody(code, message), status, { Connection: 'close' });
}

/** The whole body if it is at most `max` bytes; a larger one is drained (up to DRAIN_BYTES more) and null. */
export async function readBodyUpTo(reader: Reader, max: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.length;
    if (size > max) {
      await drainBody(reader, DRAIN_BYTES);
      return null;
    }
    chunks.push(value);
  }
}

/**
 * Bodies over `maxSize` are answered 413 JSON with `Connection: close` after the rest is drained
 * (up to DRAIN_BYTES more). Hono's bodyLimit answered at once, and the connection was reset under
 * a client still sending (ECONNRESET on the next request of a keep-alive agent).
 */
export function bodyLimit(maxSize: number, message: string): MiddlewareHandler {
  const tooLarge = (c: Context) => closingAnswer(c, 413, 'payload_too_large', message);
  return async (c, next) => {
    const headers = c.req.raw.headers;
    const length = headers.has('transfer-encoding') ? null : headers.get('content-length');
    // A declared length is checked before c.req.raw.body is touched: reading that makes
    // @hono/node-server build the whole web Request (an AbortSignal, a web stream over the socket),
    // where the handler's json() would read the socket directly.
    if (length !== null) {
      const declared = Number(length);
      if (declared <= maxSize) return next();
      const body = c.req.raw.body;
      if (body && declared <= maxSize + DRAIN_BYTES) await drainBody(body.getReader(), declared);
      return tooLarge(c);
    }
    const body = c.req.raw.body;
    if (!body) return next();
    // Chunked (or, through app.request(), a body of unknown length): counted as it arrives, kept up
    // to the limit, the rest drained.
    const whole = await readBodyUpTo(body.getReader(), maxSize);
    if (!whole) return tooLarge(c);
    c.req.raw = new Request(c.req.raw, { body: whole as Uint8Array<ArrayBuffer> });
    return next();
  };
}
