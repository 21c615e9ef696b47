import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { errorResponses } from '../http/openapi-helpers';
import { adminOnly } from './guard';
import { listAudit } from './audit';
import { decodeIdCursor } from './cursor';
import { readStats } from './stats';
import { AdminStats, AuditPage } from '#sync/rest-api/admin';
import { PageQuery } from './schemas';
import { adminUsersRouter } from './users-routes';
import { adminVideosRouter } from './videos-routes';
import { adminSettingsRouter } from './settings-routes';
import { adminRewardsAuditRouter } from './rewards-audit-routes';
import { adminReportsRouter } from './reports-routes';
import { adminHashtagsRouter } from './hashtags-routes';
import type { RunMutation } from './resolve-report';

const stats = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/stats',
  summary: 'Dashboard numbers: users, videos, active users, revenue (sum of captured payments)',
  responses: { 200: { description: 'The stats.', content: { 'application/json': { schema: AdminStats } } }, ...errorResponses(401, 403) },
});

const audit = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/audit',
  summary: 'The audit log of admin actions, newest first',
  request: { query: PageQuery },
  responses: { 200: { description: 'A page of entries.', content: { 'application/json': { schema: AuditPage } } }, ...errorResponses(400, 401, 403) },
});

/**
 * Everything under /api/admin/: signed-in administrators only, enforced on every operation.
 * `runMutation` (server/sync/mutation-in-tx.ts) removes a reported comment as deleteComment does.
 */
export function adminRouter(runMutation: RunMutation) {
  return createRouter()
    .openapi(stats, async (c) => c.json(await readStats(c.var.deps.db), 200))
    .openapi(audit, async (c) => {
      const { limit, cursor } = c.req.valid('query');
      return c.json(await listAudit(c.var.deps.db, limit, decodeIdCursor(cursor)), 200);
    })
    .route('/', adminUsersRouter())
    .route('/', adminVideosRouter())
    .route('/', adminSettingsRouter())
    .route('/', adminRewardsAuditRouter())
    .route('/', adminReportsRouter(runMutation))
    .route('/', adminHashtagsRouter());
}
