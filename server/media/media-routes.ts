import { Hono, type Context } from 'hono';
import type { AppEnv } from '../context';
import { errorBody } from '../http/errors';
import { MEDIA_CACHE_CONTROL, MediaNotFound } from '../storage/media-store';
import { parseRange } from './range';
import { publicMasterPlaylist } from './public-playlist';
import { MEDIA_KEY_RE, mediaContentType } from './urls';

const NO_STORE_JSON = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

const notFound = () => new Response(JSON.stringify(errorBody('not_found', 'No such media file.')), { status: 404, headers: NO_STORE_JSON });

/** The store failed (S3 unreachable, say): the player retries, a cache must not keep the answer. */
function unavailable(c: Context<AppEnv>, key: string, e: unknown): Response {
  c.var.deps.log.error(`media storage failed on ${c.req.method} ${key}`, e);
  return new Response(JSON.stringify(errorBody('media_unavailable', 'Media storage is briefly unavailable. Please try again in a moment.')), {
    status: 503,
    headers: { ...NO_STORE_JSON, 'Retry-After': '5' },
  });
}

/** The answer for a stored object of `size` bytes: the whole, one range, or 416. */
async function answer(c: Context<AppEnv>, key: string, size: number): Promise<Response> {
  const headers: Record<string, string> = {
    'Content-Type': mediaContentType(key),
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': MEDIA_CACHE_CONTROL,
  };
  const range = parseRange(c.req.header('range'), size);
  if (range.kind === 'unsatisfiable') {
    return new Response(JSON.stringify(errorBody('range_not_satisfiable', range.reason)), {
      status: 416,
      headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Range': `bytes */${size}` },
    });
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  headers['Content-Length'] = String(length);
  if (range.kind === 'partial') headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  const status = range.kind === 'partial' ? 206 : 200;
  if (c.req.method === 'HEAD' || length === 0) return new Response(null, { status, headers });
  try {
    // A full GET reads without a range. A failure once bytes flow ends the response early (the
    // server adapter destroys the socket); the client sees a short body and asks again.
    const body = await c.var.deps.media.read(key, range.kind === 'partial' ? { start, end } : undefined);
    return new Response(body, { status, headers });
  } catch (e) {
    // Gone since stat: deleted, maybe by another instance while this one had its size cached.
    if (e instanceof MediaNotFound) return notFound();
    return unavailable(c, key, e);
  }
}

/**
 * GET/HEAD /media/{userId}/{file}: the stored video and poster files, with single byte ranges
 * (players seek, the service worker caches). Media is public like the original's bucket, but only
 * keys of the stored shape are served, so nothing outside the media folder is reachable. The bytes
 * come from the media store, disk or S3, proxied through here in both cases: same origin for the
 * service worker's cache and for hls.js's relative segment URLs (docs/decisions/0018-several-instances.md).
 * With MEDIA_PUBLIC_BASE_URL a ready video's master playlist sends the player to the public base
 * instead (server/media/public-playlist.ts).
 */
export function mediaRouter() {
  const router = new Hono<AppEnv>();
  router.on(['GET', 'HEAD'], '/*', async (c) => {
    // The raw (still encoded) path: an encoded slash, dot-dot or NUL never matches the key shape.
    const rawPath = new URL(c.req.url).pathname;
    const key = rawPath.replace(/^\/media\//, '');
    if (!MEDIA_KEY_RE.test(key) || key.split('/').some((s) => s === '.' || s === '..')) return notFound();
    const rebased = await publicMasterPlaylist(c, key);
    if (rebased) return rebased;
    let stat: { size: number } | null;
    try {
      stat = await c.var.deps.media.stat(key);
    } catch (e) {
      return unavailable(c, key, e);
    }
    return stat ? answer(c, key, stat.size) : notFound();
  });
  return router;
}
