import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { PublicSettings } from '#sync/rest-api/settings';
import { readPublicSettings } from './public-settings';

const publicSettings = createRoute({
  method: 'get',
  path: '/public',
  tags: ['settings'],
  summary: 'Settings every visitor needs: entry fee, payment provider kind, ad ids, next distribution date',
  responses: {
    200: { description: 'The public settings (never any key or secret).', content: { 'application/json': { schema: PublicSettings } } },
  },
});

export function settingsRouter() {
  return createRouter().openapi(publicSettings, async (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.json(await readPublicSettings(c.var.deps.db), 200);
  });
}
