import { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { originOf } from './security-headers';

/** Preflights are cached this long (seconds). */
const PREFLIGHT_MAX_AGE = 600;

/**
 * CORS for the API: only `publicUrl` may read answers, with credentials. The headers are those of
 * Hono's cors({ origin: publicUrl, credentials: true }), which still answers preflights (OPTIONS).
 * For other requests Hono's cors writes onto c.res before the handler and appends Vary after it,
 * and each rebuilds the answer as a streamed web Response: ~50 us of server CPU for /api/health
 * with an Origin against ~15 us without (docs/benchmarks.md, API floor), paid by every browser
 * POST. Here Allow-Origin and Allow-Credentials go onto node's ServerResponse (as the API security
 * headers do, security-headers.ts) and Vary: Origin is appended to the answer's own headers.
 */
export function apiCors(publicUrl: string): MiddlewareHandler {
  const preflight = cors({ origin: publicUrl, credentials: true, maxAge: PREFLIGHT_MAX_AGE });
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    const allowed = originOf(c.req.raw, c.env) === publicUrl;
    const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
    if (!(outgoing instanceof ServerResponse)) {
      // app.request (tests): onto the answer itself, whatever the handler built it with.
      await next();
      if (allowed) c.header('Access-Control-Allow-Origin', publicUrl);
      c.header('Access-Control-Allow-Credentials', 'true');
      c.header('Vary', 'Origin', { append: true });
      return;
    }
    if (allowed) outgoing.setHeader('Access-Control-Allow-Origin', publicUrl);
    outgoing.setHeader('Access-Control-Allow-Credentials', 'true');
    await next();
    appendVaryOrigin(c);
  };
}

function appendVaryOrigin(c: Context): void {
  try {
    // In place: @hono/node-server keeps the answer on its fast path.
    c.res.headers.append('Vary', 'Origin');
  } catch {
    // An answer with immutable headers (a fetched Response): Hono copies it first.
    c.header('Vary', 'Origin', { append: true });
  }
}
