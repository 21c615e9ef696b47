import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiHeaders } from './security-headers';

/**
 * A route whose answer never changes (200, this JSON body) and that needs nothing of the app's edge
 * (server/app.ts) but the API headers: no deps, no body, no middleware of its own, and an answer
 * under the compression threshold (compress-json.ts). The same route stays registered in the app
 * with the same body, for its OpenAPI entry and the requests this path leaves to it.
 */
export interface LightRoute {
  path: string;
  body: unknown;
}

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

interface PreparedAnswer {
  /** The API headers, Content-Type and Content-Length, flat ([name, value, name, value, ...]). */
  head: string[];
  body: string;
}

function prepare(route: LightRoute, apiHeaders: ApiHeaders): PreparedAnswer {
  const body = JSON.stringify(route.body);
  const head = apiHeaders.flatMap(([name, value]) => [name, value]);
  head.push('content-type', 'application/json', 'content-length', String(Buffer.byteLength(body)));
  return { head, body };
}

/** The path of a request's origin-form target (`/api/health?probe=1` -> `/api/health`). */
const pathOf = (url: string | undefined): string => {
  const target = url ?? '';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
};

/**
 * In front of the app's node listener: a GET of a light route without an Origin is answered with
 * one writeHead of a header list built at start-up and its body, with no web Request, Hono context
 * or Response on the way. Through @hono/node-server and Hono, even as the only handler of an app of
 * its own, /api/health cost ~3 us more than raw node:http's ~11.5 us per request, most of it those
 * three objects and headers written one setHeader at a time (docs/benchmarks.md, API floor).
 * Everything else, a light route's HEAD and CORS requests included, goes to `next` (the app).
 */
export function answerLightRoutesFirst(routes: readonly LightRoute[], apiHeaders: ApiHeaders, next: NodeListener): NodeListener {
  const answers = new Map(routes.map((route) => [route.path, prepare(route, apiHeaders)]));
  return (req, res) => {
    const answer = req.method === 'GET' && req.headers.origin === undefined ? answers.get(pathOf(req.url)) : undefined;
    if (!answer) return next(req, res);
    res.writeHead(200, answer.head);
    res.end(answer.body);
  };
}
