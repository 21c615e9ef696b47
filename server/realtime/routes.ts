import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { requireUser } from '../auth/middleware';
import { pokeStream } from './event-stream';

const eventsRoute = createRoute({
  method: 'get',
  path: '/events',
  tags: ['sync'],
  summary: 'Server-sent events: pokes telling the client to pull',
  description:
    'Events `ready` and `poke` with data {"type":"pull","scopes":[...],"delta"?:{...}}; a delta is the pull answer from change-log seq `from` to `cursor` ' +
    '(client_id names the device, for last_mutation_id). A comment line every 25 s as heartbeat.',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { query: z.object({ client_id: z.uuid().optional() }) },
  responses: {
    200: { description: 'An event stream.', content: { 'text/event-stream': { schema: z.string() } } },
    ...errorResponses(401, 403),
  },
});

/** GET /api/sync/events: the live-update stream (mounted beside the sync router, under the same prefix). */
export function eventStreamRouter() {
  const router = createRouter();
  // The handler returns a streaming Response, which the typed OpenAPI handler cannot express.
  router.openapi(eventsRoute, ((c: Parameters<typeof pokeStream>[0]) => pokeStream(c)) as never);
  return router;
}
