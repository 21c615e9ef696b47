export type Body = string | Uint8Array<ArrayBuffer>;

/**
 * @hono/node-server replaces the global Response with a lighter one that keeps what it was made
 * with ([status, body, headers] under a private symbol named "cache", in its Response class) and
 * writes a string body straight to the socket. Reading a body back through the web API (text(),
 * .body) costs ~14 µs and moves the answer onto the streamed path, about what /api/health costs in
 * all; so the kept body is looked at instead. response-body.test.ts fails if an upgrade of the
 * adapter drops it; answers then take the slower read (compress-json.ts), still correct.
 */
let kept: symbol | undefined;

/**
 * The body `res` was made with when it is at hand for free: a string or bytes, null for none.
 * Undefined when it is not (a stream, or a platform Response): the caller reads it if it must.
 */
export function knownBody(res: Response): Body | null | undefined {
  kept ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  const cache: unknown = kept ? (res as unknown as Record<symbol, unknown>)[kept] : undefined;
  if (!Array.isArray(cache)) return undefined;
  const body: unknown = cache[1];
  if (body === null || typeof body === 'string') return body;
  return body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : undefined;
}
