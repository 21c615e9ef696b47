import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { requireUser } from '../auth/middleware';
import { PullRequestSchema, PullResponseSchema, PushRequestSchema, PushResponseSchema } from '#sync/protocol/messages';
import { MutationIdGapError } from './push';
import { processPush } from './push-group';
import { limitPushes } from './push-rate-limit';
import { processPull } from './pull';

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

const GapErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  last_mutation_id: z.number().int(),
});

const pushRoute = createRoute({
  method: 'post',
  path: '/push',
  tags: ['sync'],
  summary: 'Apply queued mutations, each exactly once',
  description:
    'Each mutation is applied atomically, in the transaction that also moves the client\'s last_mutation_id (a refused mutation leaves no writes). Ids at or below it are answered "duplicate"; ' +
    'permanent refusals are "rejected" with a reason and still advance the id. A gap answers 409 mutation_id_gap with last_mutation_id; ' +
    'a client id of another user answers 403 client_id_taken. Pushes are rate-limited per member (token bucket, docs/sync.md): 429 rate_limited with Retry-After, nothing applied. ' +
    'A push that keeps losing to concurrent writes (PostgreSQL deadlocks, retried a few times first) answers 503 busy with Retry-After, nothing of the failed part applied.',
  security: bearerSecurity,
  // The limit is taken before the body is read: a throttled caller costs no parsing.
  middleware: [requireUser, limitPushes] as const,
  request: { body: { required: true, content: json(PushRequestSchema) } },
  responses: {
    200: { description: 'Per-mutation results (a prefix of the batch if the server stopped early).', content: json(PushResponseSchema) },
    ...errorResponses(400, 401, 403, 413, 429),
    409: { description: 'A gapped mutation id; renumber from last_mutation_id + 1.', content: json(GapErrorSchema) },
  },
});

const pullRoute = createRoute({
  method: 'post',
  path: '/pull',
  tags: ['sync'],
  summary: 'Rows changed since a cursor, scoped to what the client holds',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { body: { required: true, content: json(PullRequestSchema) } },
  responses: { 200: { description: 'Changes and the new cursor.', content: json(PullResponseSchema) }, ...errorResponses(400, 401, 403) },
});

export function syncRouter() {
  const router = createRouter();
  router.openapi(pushRoute, async (c) => {
    try {
      return c.json(await processPush(c.var.deps, c.var.user, c.req.valid('json')), 200);
    } catch (err) {
      if (err instanceof MutationIdGapError) {
        return c.json({ error: { code: err.code, message: err.message }, last_mutation_id: err.lastMutationId }, 409);
      }
      throw err;
    }
  });
  router.openapi(pullRoute, async (c) => c.json(await processPull(c.var.deps, c.var.user, c.req.valid('json')), 200));
  return router;
}
