import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createRouter } from './router';
import type { LightRoute } from './light-routes';

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['system'],
  summary: 'Liveness check',
  responses: {
    200: { description: 'The server is up.', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } },
  },
});

const HEALTH_BODY = { status: 'ok' as const };
const healthAnswer = (c: Context) => c.json(HEALTH_BODY, 200);

/** Mounted at /api. */
export function systemRouter() {
  return createRouter().openapi(health, healthAnswer);
}

/** The system routes the node listener answers before the app (light-routes.ts): the liveness check. */
export const lightSystemRoutes: readonly LightRoute[] = [{ path: '/api/health', body: HEALTH_BODY }];
