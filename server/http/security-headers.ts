import { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context';
import { secureHeaders } from 'hono/secure-headers';

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

// The Razorpay Checkout script and the ad service are the only third parties the app loads
// (docs/admin-payments.md, "Entry fee"; docs/pwa.md, "Ads"); everything else is same-origin.
const RAZORPAY = ['https://checkout.razorpay.com', 'https://api.razorpay.com'];
const ADS = ['https://pagead2.googlesyndication.com', 'https://googleads.g.doubleclick.net', 'https://tpc.googlesyndication.com'];

/**
 * HSTS only when the public origin is https: browsers then refuse plain http to this host for a
 * year, so a network attacker cannot strip TLS from a later visit. Over http the header would be
 * ignored by browsers at best, and it would pin a development host at worst, so it is left out.
 */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';
const wantsHsts = (c: Context) => (c as Context<AppEnv>).var.deps?.config.publicUrl.startsWith('https:') === true;

/**
 * The document policy. `mediaOrigin` is MEDIA_PUBLIC_BASE_URL's origin when it is set: hls.js fetches
 * the playlists and segments there (connect-src), and the <video> and poster <img> load from it
 * (media-src, img-src; docs/deploy.md, "Media from a CDN"). Unset, the policy is the same-origin one.
 */
function documentPolicy(hsts: boolean, mediaOrigin: string | null): SecureHeadersOptions {
  const media = mediaOrigin ? [mediaOrigin] : [];
  return {
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...RAZORPAY, ...ADS],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...media, ...ADS],
      mediaSrc: ["'self'", 'blob:', ...media],
      connectSrc: ["'self'", ...media, ...RAZORPAY, ...ADS],
      frameSrc: [...RAZORPAY, ...ADS],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: hsts ? HSTS_VALUE : false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
  };
}

// One middleware per (HSTS, public media base): a process has one of each, tests several.
const documentHeaders = new Map<string, MiddlewareHandler>();

/** For documents (the PWA shell, its assets, media, the API docs page): the full policy. */
export const documentSecurityHeaders: MiddlewareHandler = (c, next) => {
  const hsts = wantsHsts(c);
  const base = (c as Context<AppEnv>).var.deps?.config.media.publicBaseUrl;
  const id = `${hsts} ${base ?? ''}`;
  let headers = documentHeaders.get(id);
  if (!headers) documentHeaders.set(id, (headers = secureHeaders(documentPolicy(hsts, base ? new URL(base).origin : null))));
  return headers(c, next);
};

/**
 * For JSON API answers: nothing in them may run, render or be framed, so the strictest policy is
 * also the shortest. The document policy above is ~1.3 KB per answer; on the smallest answers
 * (health, a like's push) writing and parsing it cost ~30 % of the throughput (docs/benchmarks.md).
 * Follows OWASP's REST security headers.
 */
const API_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
];
const API_HEADERS_WITH_HSTS: ReadonlyArray<readonly [string, string]> = [...API_HEADERS, ['strict-transport-security', HSTS_VALUE]];

/** The API headers for this process's public origin (HSTS only on https), chosen once at start-up. */
export const apiHeadersFor = (publicUrl: string): ApiHeaders => (publicUrl.startsWith('https:') ? API_HEADERS_WITH_HSTS : API_HEADERS);
export type ApiHeaders = ReadonlyArray<readonly [string, string]>;

/**
 * Under node:http the headers go straight onto the ServerResponse (a handler's own value for the
 * same name still wins when @hono/node-server writes the head); c.header() would build a web
 * Headers object per answer, measured at ~10 % of /api/health. Elsewhere (app.request in tests)
 * c.header() it is. Synchronous, so the edge adds no promise of its own (docs/benchmarks.md).
 */
export function writeApiHeaders(c: Context, headers: ApiHeaders): void {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (outgoing instanceof ServerResponse) for (const [name, value] of headers) outgoing.setHeader(name, value);
  else for (const [name, value] of headers) c.header(name, value);
}

/**
 * The request's Origin. Under node:http (`env` is @hono/node-server's) it is read from the
 * IncomingMessage: asking the web Request makes @hono/node-server copy every request header into a
 * web Headers object.
 */
export function originOf(request: Request, env: unknown): string | undefined {
  const incoming = (env as { incoming?: unknown } | undefined)?.incoming;
  if (incoming instanceof IncomingMessage) return incoming.headers.origin;
  return request.headers.get('origin') ?? undefined;
}

/** /api/* answers JSON, except the Swagger UI page under /api/docs, which is a document. */
export const isApiPath = (path: string): boolean => path.startsWith('/api/') && !path.startsWith('/api/docs');
