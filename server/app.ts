import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { AppDeps } from './context';
import { ApiError, errorBody } from './http/errors';
import { createRouter } from './http/router';
import { securityHeaders } from './http/security-headers';
import { systemRouter } from './http/system-routes';
import { apiDocsRouter } from './http/api-docs';
import { mountClient } from './http/static-client';
import { mountTus } from './uploads/mount';
import { posterRouter } from './uploads/poster-routes';
import { mediaRouter } from './media/media-routes';
import { syncRouter } from './sync/routes';
import { videosRouter } from './videos/routes';
import { authRouter } from './auth/auth-router';
import { profileRouter } from './auth/profile-router';
import { settingsRouter } from './settings/routes';
import { adminRouter } from './admin/routes';
import { adminRewardsRouter, rewardsRouter } from './rewards/routes';
import { paymentsRouter } from './payments/routes';

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** JSON bodies larger than this are refused with 413 before they are parsed. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/**
 * The whole HTTP app, composed from one router per area (hono style: small routers, app.route()).
 * Tests call app.request() on it without opening a port.
 */
export function createApp(deps: AppDeps) {
  const app = createRouter();

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', securityHeaders);
  const corsForPublicUrl = cors({ origin: deps.config.publicUrl, credentials: true, maxAge: 600 });
  // Requests without an Origin (same-origin GETs, native clients) need no CORS headers, and Hono's
  // cors touches c.res before the handler runs, which forces the slow streamed-response path.
  app.use('/api/*', (c, next) => (c.req.header('origin') ? corsForPublicUrl(c, next) : next()));
  // Before the JSON body limit: the poster route applies its own 512 KiB image limit.
  app.route('/api/videos', posterRouter());
  const jsonBodyLimit = bodyLimit({
    maxSize: MAX_JSON_BODY_BYTES,
    onError: (c) => c.json(errorBody('payload_too_large', `The request body is larger than ${MAX_JSON_BODY_BYTES} bytes.`), 413),
  });
  // Only for methods that carry a body: bodyLimit reads c.req.raw.body, which makes
  // @hono/node-server build a full web Request for every GET (measured: ~10x the cost of /api/health).
  app.use('/api/*', (c, next) => (BODYLESS_METHODS.has(c.req.method) ? next() : jsonBodyLimit(c, next)));

  app.route('/api', systemRouter());
  mountTus(app, deps);
  app.route('/media', mediaRouter());
  app.route('/api/auth', authRouter());
  app.route('/api/profile', profileRouter());
  app.route('/api/settings', settingsRouter());
  app.route('/api/rewards', rewardsRouter());
  app.route('/api/admin/rewards', adminRewardsRouter());
  app.route('/api/admin', adminRouter());
  app.route('/api/payments', paymentsRouter());
  app.route('/api/sync', syncRouter());
  app.route('/api/videos', videosRouter());

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Vidi API', version: '1.0.0', description: 'The API of Vidi, an offline-first short-video PWA.' },
    servers: [{ url: deps.config.publicUrl }],
  });
  app.route('/api/docs', apiDocsRouter());

  app.notFound((c) => c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}.`), 404));
  app.onError((err, c) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(errorBody(err.code, err.message), err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 400 ? 'invalid_request' : status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'http_error';
      return c.json(errorBody(code, err.message || 'Bad request.'), status as 400);
    }
    deps.log.error(`unhandled error on ${c.req.method} ${c.req.path}`, err);
    return c.json(errorBody('internal', 'Something went wrong.'), 500);
  });

  mountClient(app, deps.config.clientDist);
  return app;
}

export type App = ReturnType<typeof createApp>;
