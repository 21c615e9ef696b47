import { Hono, type Context, type ErrorHandler, type NotFoundHandler } from 'hono';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { getPath } from 'hono/utils/url';
import { originOf, writeApiHeaders, type ApiHeaders } from './security-headers';

/**
 * A route that needs nothing of the app's edge (server/app.ts) but the API headers: no deps, no
 * body, no middleware of its own, and an answer under the compression threshold (compress-json.ts).
 * The same route stays registered in the app, for its OpenAPI entry and the requests it takes.
 */
export interface LightRoute {
  path: string;
  answer: (c: Context) => Response;
}

type Fetch = (request: Request, env?: unknown, executionCtx?: never) => Response | Promise<Response>;

/**
 * Routes a GET without an Origin to a light route through a small Hono app of its own, where it is
 * the only handler: Hono then answers without composing a middleware chain, and @hono/node-server
 * writes the answer at once instead of awaiting it (about 2 us of the ~16 us /api/health costs,
 * docs/benchmarks.md, API floor). Everything else, a light route's HEAD or CORS request included,
 * goes to the app as before. Both app.request (tests) and the node listener take this path.
 */
export function answerLightRoutesFirst(
  app: { fetch: Fetch },
  routes: readonly LightRoute[],
  apiHeaders: ApiHeaders,
  handlers: { onError: ErrorHandler; notFound: NotFoundHandler },
): void {
  const light = new Hono({ router: new RegExpRouter() });
  for (const route of routes) {
    light.get(route.path, (c) => {
      writeApiHeaders(c, apiHeaders);
      return route.answer(c);
    });
  }
  light.onError(handlers.onError);
  light.notFound(handlers.notFound);
  const paths = new Set(routes.map((r) => r.path));
  const full = app.fetch;
  app.fetch = (request, env, executionCtx) =>
    request.method === 'GET' && paths.has(getPath(request)) && !originOf(request, env)
      ? light.fetch(request, env, executionCtx)
      : full(request, env, executionCtx);
}
