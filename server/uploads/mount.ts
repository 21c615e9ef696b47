import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { answerLightRoutesFirst } from '../http/light-routes';
import { apiHeadersFor } from '../http/security-headers';
import { lightSystemRoutes } from '../http/system-routes';
import { webToNodeListener } from './node-adapter';
import { isTusPath, TUS_PATH, tusEndpointFor } from './tus-server';

/** /files inside the Hono app, for in-process tests (app.request) and as a fallback. */
export function mountTus(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const endpoint = tusEndpointFor(deps);
  app.all(TUS_PATH, (c) => endpoint.handle(c.req.raw));
  app.all(`${TUS_PATH}/*`, (c) => endpoint.handle(c.req.raw));
}

/**
 * The node:http listener of `npm start` (and of tests that need a real port): /files goes to tus
 * straight away, with no Hono middleware (no body parsing, no JSON limit) on the way and through
 * our own body adapter (node-adapter.ts); a GET of /api/health is answered before Hono
 * (server/http/light-routes.ts); the rest goes to Hono.
 */
export function createNodeListener(deps: AppDeps, app: { fetch: (req: Request) => Response | Promise<Response> }) {
  const hono = getRequestListener(app.fetch);
  const tus = webToNodeListener(
    (req) => tusEndpointFor(deps).handle(req),
    (e) => deps.log.error('upload request failed', e),
  );
  const rest = answerLightRoutesFirst(lightSystemRoutes, apiHeadersFor(deps.config.publicUrl), (req, res) => void hono(req, res));
  return (req: IncomingMessage, res: ServerResponse) => (isTusPath(req.url) ? void tus(req, res) : rest(req, res));
}
