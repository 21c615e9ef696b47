import type { Context, ErrorHandler, MiddlewareHandler, Next, NotFoundHandler } from 'hono';
import { isDatabaseUnavailable } from '#db/errors';
import { HTTPException } from 'hono/http-exception';
import type { AppDeps } from './context';
import { ApiError, errorBody } from './http/errors';
import { bodyLimit } from './http/body-limit';
import { apiCors } from './http/api-cors';
import { createRouter } from './http/router';
import { apiHeadersFor, documentSecurityHeaders, isApiPath, originOf, writeApiHeaders } from './http/security-headers';
import { systemRouter } from './http/system-routes';
import { apiDocsRouter } from './http/api-docs';
import { mountClient } from './http/static-client';
import { compressJsonAnswer } from './http/compress-json';
import { seoRouter } from './http/seo-routes';
import { shareTargetRouter } from './http/share-target-route';
import { mountTus } from './uploads/mount';
import { posterRouter } from './uploads/poster-routes';
import { captionsRouter } from './uploads/captions-routes';
import { mediaRouter } from './media/media-routes';
import { syncRouter } from './sync/routes';
import { eventStreamRouter } from './realtime/routes';
import { videosRouter } from './videos/routes';
import { peopleRouter } from './people/routes';
import { hashtagRouter } from './discovery/hashtag-routes';
import { searchRouter } from './discovery/search-routes';
import { requireUser } from './auth/middleware';
import { authRouter } from './auth/auth-router';
import { profileRouter } from './auth/profile-router';
import { settingsRouter } from './settings/routes';
import { adminRouter } from './admin/routes';
import { safetyRouter } from './safety/routes';
import { runMutationInTx } from './sync/mutation-in-tx';
import { adminRewardsRouter, rewardsRouter } from './rewards/routes';
import { paymentsRouter } from './payments/routes';
import { notificationsRouter, pushRouter } from './notifications/routes';

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const isPosterPath = (path: string) => /^\/api\/videos\/[^/]+\/poster$/.test(path);

/** Runs `mw` in front of `next` the way Hono's compose does: an answer it returns becomes c.res. */
const chain =
  (c: Context, mw: MiddlewareHandler, next: Next): Next =>
  async () => {
    const res: unknown = await mw(c, next);
    // A middleware passes on what next() gave it (Hono's own next returns the context): only an
    // answer of its own, like bodyLimit's 413, is taken.
    if (res instanceof Response && !c.finalized) c.res = res;
  };

/** JSON bodies larger than this are refused with 413 before they are parsed. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/**
 * The whole HTTP app, composed from one router per area (hono style: small routers, app.route()).
 * Tests call app.request() on it without opening a port.
 */
export function createApp(deps: AppDeps) {
  const app = createRouter();

  const corsForPublicUrl = apiCors(deps.config.publicUrl);
  const apiHeaders = apiHeadersFor(deps.config.publicUrl);
  const jsonBodyLimit = bodyLimit(MAX_JSON_BODY_BYTES, `The request body is larger than ${MAX_JSON_BODY_BYTES} bytes.`);
  // One middleware for what every request needs, so the smallest answers pay one dispatch step.
  app.use('*', (c, next) => {
    c.set('deps', deps);
    const path = c.req.path;
    if (!isApiPath(path)) return documentSecurityHeaders(c, next);
    writeApiHeaders(c, apiHeaders);
    let run = next;
    // Only for methods that carry a body (and never for the poster route, which applies its own
    // 512 KiB image limit): bodyLimit reads c.req.raw.body, which makes @hono/node-server build a
    // full web Request (measured: ~10x the cost of /api/health).
    if (!BODYLESS_METHODS.has(c.req.method) && !isPosterPath(path)) run = chain(c, jsonBodyLimit, run);
    // Requests without an Origin (same-origin GETs, native clients) need no CORS headers.
    if (originOf(c.req.raw, c.env)) run = chain(c, corsForPublicUrl, run);
    // JSON answers over 1 KB are compressed once the handler has answered; a small one costs a
    // look at its body's length (compress-json.ts).
    return run().then(() => compressJsonAnswer(c));
  });
  app.route('/api/videos', posterRouter());
  app.route('/api/videos', captionsRouter());

  app.route('/api', systemRouter());
  mountTus(app, deps);
  app.route('/media', mediaRouter());
  app.route('/api/auth', authRouter());
  app.route('/api/profile', profileRouter());
  app.route('/api/settings', settingsRouter());
  app.route('/api/rewards', rewardsRouter());
  app.route('/api/admin/rewards', adminRewardsRouter());
  app.route('/api/admin', adminRouter(runMutationInTx));
  app.route('/api', safetyRouter());
  app.route('/api/payments', paymentsRouter());
  app.route('/api/sync', syncRouter());
  app.route('/api/sync', eventStreamRouter());
  app.route('/api/videos', videosRouter());
  app.route('/api', peopleRouter(requireUser));
  app.route('/api', hashtagRouter(requireUser));
  app.route('/api', searchRouter(requireUser));
  app.route('/api/push', pushRouter());
  app.route('/api/notifications', notificationsRouter());

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Vidi API', version: '1.0.0', description: 'The API of Vidi, an offline-first short-video PWA.' },
    servers: [{ url: deps.config.publicUrl }],
  });
  app.route('/api/docs', apiDocsRouter());

  const notFound: NotFoundHandler = (c) => c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}.`), 404);
  const onError: ErrorHandler = (err, c) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(errorBody(err.code, err.message), err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 400 ? 'invalid_request' : status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'http_error';
      return c.json(errorBody(code, err.message || 'Bad request.'), status as 400);
    }
    if (isDatabaseUnavailable(err)) {
      // The pool reconnects on its own; the client's queue waits and retries (docs/operations.md).
      deps.log.error(`database unavailable on ${c.req.method} ${c.req.path}`, err);
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return c.json(errorBody('database_unavailable', 'The service is briefly unavailable. Please try again in a moment.'), 503);
    }
    deps.log.error(`unhandled error on ${c.req.method} ${c.req.path}`, err);
    return c.json(errorBody('internal', 'Something went wrong.'), 500);
  };
  app.notFound(notFound);
  app.onError(onError);

  app.route('/', seoRouter());
  app.route('/', shareTargetRouter());
  mountClient(app, deps.config.clientDist);
  return app;
}

/** How long a client waits before retrying while the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

export type App = ReturnType<typeof createApp>;
