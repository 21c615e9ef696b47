import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from './router';

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['system'],
  summary: 'Liveness check',
  responses: {
    200: { description: 'The server is up.', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } },
  },
});

export function systemRouter() {
  return createRouter().openapi(health, (c) => c.json({ status: 'ok' as const }, 200));
}
