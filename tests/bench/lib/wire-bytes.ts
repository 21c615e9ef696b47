import { request } from 'node:http';

// Bytes of a response body as they travel, before any decoding: fetch() would decompress and hide
// them, so this reads the raw body over node:http.

export const ACCEPT_COMPRESSED = 'br, gzip';

export interface WireBody {
  status: number;
  bytes: number;
  /** The Content-Encoding the server chose ('identity' when none). */
  encoding: string;
}

/** A body still arriving after this long is a stream, not a resource: an error, not a hang. */
const TIMEOUT_MS = 30_000;

export function wireBody(url: string, headers: Record<string, string> = {}): Promise<WireBody> {
  return new Promise((ok, fail) => {
    const req = request(url, { method: 'GET', headers, signal: AbortSignal.timeout(TIMEOUT_MS) }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => ok({ status: res.statusCode ?? 0, bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/** One response fetched the way a browser asks (br, gzip) and the way a client that accepts neither does. */
export async function compressedAndPlain(url: string, headers: Record<string, string> = {}): Promise<{ compressed: WireBody; plain: WireBody }> {
  const compressed = await wireBody(url, { ...headers, 'accept-encoding': ACCEPT_COMPRESSED });
  const plain = await wireBody(url, headers);
  return { compressed, plain };
}

export interface LoadBytes {
  compressed: number;
  plain: number;
  requests: number;
  /** Encodings the server chose when offered br and gzip, with their counts, e.g. 'br 6, identity 3'. */
  encodings: string;
}

/** Sums both sides over a page's GET requests, replayed with the same headers for each. */
export async function loadBytes(urls: string[], headers: (url: string) => Record<string, string>): Promise<LoadBytes> {
  let compressed = 0;
  let plain = 0;
  const encodings = new Map<string, number>();
  for (const url of urls) {
    const r = await compressedAndPlain(url, headers(url));
    if (r.compressed.status !== r.plain.status) throw new Error(`${url}: ${r.compressed.status} with ${ACCEPT_COMPRESSED}, ${r.plain.status} without`);
    compressed += r.compressed.bytes;
    plain += r.plain.bytes;
    encodings.set(r.compressed.encoding, (encodings.get(r.compressed.encoding) ?? 0) + 1);
  }
  return {
    compressed,
    plain,
    requests: urls.length,
    encodings: [...encodings].map(([e, n]) => `${e} ${n}`).join(', '),
  };
}
