import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
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
 * our own body adapter (node-adapter.ts); the rest goes to Hono.
 */
export function createNodeListener(deps: AppDeps, app: { fetch: (req: Request) => Response | Promise<Response> }) {
  const hono = getRequestListener(app.fetch);
  const tus = webToNodeListener(
    (req) => tusEndpointFor(deps).handle(req),
    (e) => deps.log.error('upload request failed', e),
  );
  return (req: IncomingMessage, res: ServerResponse) => void (isTusPath(req.url) ? tus(req, res) : hono(req, res));
}
