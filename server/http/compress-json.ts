import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { negotiateEncoding, varyWithAcceptEncoding } from './accept-encoding';
import { knownBody, type Body } from './response-body';

/** Smaller answers are sent as they are: a coding's framing would eat most of the gain. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Brotli quality 5 (of 11), a cheap level: on a 20-video feed page (15.9 KB, 20 owners) it sends
 * 1.84 KB in ~0.14 ms, where quality 11 sends 1.73 KB in ~23 ms and quality 4 1.96 KB in ~0.13 ms
 * (this machine, node:zlib). gzip, the fallback, keeps zlib's default level 6: 2.23 KB in ~0.07 ms.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const JSON_TYPE = /^application\/(?:[^;\s]+\+)?json\s*(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

const byteLength = (body: Body) => (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

/**
 * Whether `body` is under COMPRESS_MIN_BYTES. A string's UTF-8 form is never shorter than its UTF-16
 * length, so a long string needs no count (a feed page's is a pass over ~12 KB, and the adapter makes
 * its own for Content-Length).
 */
const smallerThanMin = (body: Body) =>
  typeof body === 'string' ? body.length < COMPRESS_MIN_BYTES && Buffer.byteLength(body) < COMPRESS_MIN_BYTES : body.byteLength < COMPRESS_MIN_BYTES;

/** A JSON answer that may be re-encoded: not already coded, not marked no-transform, with a whole body. */
function compressible(res: Response): boolean {
  if (res.status === 204 || res.status === 304 || res.status === 206) return false;
  const h = res.headers;
  return JSON_TYPE.test(h.get('content-type') ?? '') && !h.has('content-encoding') && !NO_TRANSFORM.test(h.get('cache-control') ?? '');
}

async function encode(body: Body, coding: 'br' | 'gzip'): Promise<Uint8Array<ArrayBuffer>> {
  if (coding === 'gzip') return (await gzipAsync(body, { level: GZIP_LEVEL })) as Uint8Array<ArrayBuffer>;
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: byteLength(body),
  };
  return (await brotli(body, { params })) as Uint8Array<ArrayBuffer>;
}

/** Sends `body` (the bytes of `res`) coded as the request prefers; Vary: Accept-Encoding either way. */
async function compressInto(c: Context, res: Response, body: Body): Promise<void> {
  const coding = negotiateEncoding(c.req.header('accept-encoding'), ['br', 'gzip']);
  if (coding === 'identity') {
    // The answer goes as it is: only Vary is added (on the adapter's kept headers, no copy).
    res.headers.set('Vary', varyWithAcceptEncoding(res.headers.get('vary')));
    return;
  }
  const headers = new Headers(res.headers);
  headers.set('Vary', varyWithAcceptEncoding(headers.get('vary')));
  const coded = await encode(body, coding);
  headers.set('Content-Encoding', coding);
  headers.set('Content-Length', String(coded.byteLength));
  // The bytes differ from the identity answer's: a strong validator would claim they do not.
  const etag = headers.get('etag');
  if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
  // Unset first: Hono's setter would otherwise copy the old answer's headers over these.
  c.res = undefined;
  c.res = new Response(coded, { status: res.status, headers });
}

/** An answer whose body is a stream: read it if it is JSON (a web Response built by hand, say). */
async function compressStreamed(c: Context, res: Response): Promise<void> {
  if (!compressible(res) || !res.body) return;
  const body = new Uint8Array(await res.arrayBuffer());
  // The stream is spent: the answer is made again from the bytes read.
  c.res = undefined;
  c.res = new Response(body, { status: res.status, headers: res.headers });
  if (body.byteLength >= COMPRESS_MIN_BYTES) return compressInto(c, c.res, body);
}

/**
 * After an API handler: compresses a JSON answer of at least COMPRESS_MIN_BYTES (br, else gzip,
 * else identity; Vary: Accept-Encoding on all three). Synchronous and allocation-free for a small
 * answer, which is most of them (docs/benchmarks.md, API floor). Event streams are read as they
 * are (never buffered: their type is checked first); /media and /files are outside the API.
 */
export function compressJsonAnswer(c: Context): Promise<void> | undefined {
  if (c.req.method === 'HEAD') return;
  const res = c.res;
  const body = knownBody(res);
  if (body === null) return;
  if (body === undefined) return compressStreamed(c, res);
  if (smallerThanMin(body) || !compressible(res)) return;
  return compressInto(c, res, body);
}
