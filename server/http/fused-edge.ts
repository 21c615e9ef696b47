import type { Context, Env, Hono, MiddlewareHandler, Next } from 'hono';

type Handler = (c: Context, next: Next) => unknown;
type Match = Hono['router']['match'];
/** Hono keeps the onError handler in a field its types mark private; it is read per request. */
type WithErrorHandler = { errorHandler: (err: Error, c: Context) => Response | Promise<Response> };

/** The app's one global middleware, and its synchronous form for the requests that allow it. */
export interface Edge {
  middleware: MiddlewareHandler;
  /** Whether `method` and `path` may take the synchronous form (known at routing time). */
  fusable(method: string, path: string): boolean;
  /** Does the edge's work before the handler; false when this request needs the awaited middleware. */
  before(c: Context): boolean;
  /** The edge's work once the handler has answered (c.res); a promise only when it must wait. */
  after(c: Context): Promise<void> | undefined;
}

const settle = (c: Context, res: unknown) => {
  if (res instanceof Response && !c.finalized) c.res = res;
};

const answer = (c: Context) => (c.finalized ? c.res : undefined);

function handlerError(app: WithErrorHandler, c: Context, err: unknown): void | Promise<void> {
  if (!(err instanceof Error)) throw err;
  const res = app.errorHandler(err, c);
  return res instanceof Promise ? res.then((r) => settle(c, r)) : settle(c, res);
}

/**
 * Runs a route's handler as Hono's compose would inside the edge: its answer becomes c.res, and an
 * Error it throws becomes the app's error answer here, so the edge's after-work still applies to it.
 * The synchronous path makes no closure: under tsx each one is also wrapped to keep its name.
 */
function runHandler(app: WithErrorHandler, handler: Handler, c: Context, next: Next): void | Promise<void> {
  try {
    const res = handler(c, next);
    if (res instanceof Promise)
      return res.then(
        (r) => settle(c, r),
        (err: unknown) => handlerError(app, c, err),
      );
    settle(c, res);
  } catch (err) {
    return handlerError(app, c, err);
  }
}

function afterEdge(edge: Edge, c: Context): Response | undefined | Promise<Response | undefined> {
  const after = edge.after(c);
  return after ? after.then(() => answer(c)) : answer(c);
}

/**
 * With a global middleware every request goes through Hono's compose, which is async: the
 * @hono/node-server adapter then awaits the answer and adds a close listener instead of writing it
 * at once (docs/benchmarks.md, API floor: bare Hono 0.87x of node:http, with one empty middleware
 * 0.82x). Where the route has no middleware of its own, the edge and the handler are fused into one
 * handler here, which answers synchronously when both do. The edge's work is the same either way.
 */
export function fuseEdge<E extends Env>(app: Hono<E>, edge: Edge): void {
  const plain = app as unknown as WithErrorHandler;
  type Entry = ReturnType<Match>[0][number][0];
  // The routers keep one [handler, route] entry per route (the params come per match): fused once.
  const fusedEntries = new WeakMap<Entry, Entry>();
  const fuse = ([handler, route]: Entry): Entry => {
    const fused = (c: Context, next: Next) => {
      if (!edge.before(c)) {
        return Promise.resolve(edge.middleware(c, async () => runHandler(plain, handler as Handler, c, next))).then((r) => {
          settle(c, r);
          return answer(c);
        });
      }
      const ran = runHandler(plain, handler as Handler, c, next);
      return ran instanceof Promise ? ran.then(() => afterEdge(edge, c)) : afterEdge(edge, c);
    };
    return [fused, route] as unknown as Entry;
  };
  const router = app.router as unknown as { match: Match };
  let match: Match = router.match.bind(router);
  const fusedMatch: Match = (method, path) => {
    const result = match(method, path);
    const routes = result[0];
    if (routes.length !== 2 || routes[0]![0][0] !== edge.middleware || !edge.fusable(method, path)) return result;
    const [entry, params] = routes[1]!;
    let fused = fusedEntries.get(entry);
    if (!fused) fusedEntries.set(entry, (fused = fuse(entry)));
    return [[[fused, params]], ...result.slice(1)] as unknown as ReturnType<Match>;
  };
  // Hono's SmartRouter replaces its own match() with the router it settles on at the first request.
  Object.defineProperty(router, 'match', {
    configurable: true,
    get: () => fusedMatch,
    set: (m: Match) => {
      match = m;
    },
  });
}
