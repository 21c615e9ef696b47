import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../http/errors';
import { DRAIN_BYTES } from '../http/body-limit';

/**
 * Request bodies are buffered up to this much before the socket is paused. @hono/node-server's
 * generic adapter (Readable.toWeb, 16 KiB) paused and resumed the socket around every 64 KiB read,
 * which halved the rate a PATCH body was read at (measurements in docs/uploads.md).
 */
const BODY_BUFFER_BYTES = 1 << 20;

/**
 * An upload body as a web stream, read from the socket without stopping it at every chunk, and a
 * `discard` for what the handler did not read (a refused PATCH): drained up to DRAIN_BYTES, so the
 * connection can be reused, and not buffered.
 */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; received(): number; discard(): void } {
  let settled = false;
  let received = 0;
  req.on('data', (chunk: Buffer) => (received += chunk.length));
  const discard = () => {
    if (settled) return;
    settled = true;
    // Read and dropped up to DRAIN_BYTES; a sender of more is cut off (it was told Connection: close).
    let left = DRAIN_BYTES;
    req.on('data', (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) req.destroy();
    });
    req.resume();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onData = (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        };
        const fail = (e: Error) => {
          if (settled) return;
          settled = true;
          controller.error(e);
        };
        req.on('data', onData);
        req.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        req.once('error', fail);
        // A client that goes away mid-body: the reader learns it, and what arrived stays usable.
        req.once('close', () => {
          if (!req.complete) fail(new Error('The client closed the connection before the body ended.'));
        });
      },
      pull() {
        req.resume();
      },
      cancel: discard,
    },
    new ByteLengthQueuingStrategy({ highWaterMark: BODY_BUFFER_BYTES }),
  );
  return { stream, received: () => received, discard };
}

/** What is left of a body to read: its declared length minus what arrived; unknown (chunked) counts as more than any bound. */
function unreadBytes(req: IncomingMessage, received: number): number {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && req.headers['content-length'] !== undefined ? declared - received : Infinity;
}

function sendJsonError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(errorBody(code, message)));
}

/** The web Request for a node one; only POST and PATCH, the methods tus reads, get a body. */
function toWebRequest(req: IncomingMessage): { request: Request; body: ReturnType<typeof bodyStream> | null } {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
  const method = req.method ?? 'GET';
  const body = method === 'POST' || method === 'PATCH' ? bodyStream(req) : null;
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const request = new Request(url, body ? ({ method, headers, body: body.stream, duplex: 'half' } as RequestInit) : { method, headers });
  return { request, body };
}

async function sendResponse(
  req: IncomingMessage,
  res: ServerResponse,
  request: Request,
  response: Response,
  body: ReturnType<typeof bodyStream> | null,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const payload = request.method === 'HEAD' || !response.body ? undefined : Buffer.from(await response.arrayBuffer());
  // More unread body than the drain takes: this connection cannot carry another request.
  if (body && !req.complete && unreadBytes(req, body.received()) > DRAIN_BYTES) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(payload);
}

/**
 * A node:http listener around a web handler, for the tus endpoint only (everything else goes
 * through Hono's adapter).
 */
export function webToNodeListener(handle: (request: Request) => Promise<Response>, onError: (e: unknown) => void) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let web: ReturnType<typeof toWebRequest>;
    try {
      web = toWebRequest(req);
    } catch {
      sendJsonError(res, 400, 'bad_request', 'The request line or its headers could not be read.');
      return;
    }
    try {
      await sendResponse(req, res, web.request, await handle(web.request), web.body);
    } catch (e) {
      onError(e);
      sendJsonError(res, 500, 'internal', 'Something went wrong. Please try again.');
    } finally {
      if (!req.complete) web.body?.discard();
    }
  };
}
