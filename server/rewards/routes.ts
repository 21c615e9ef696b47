import { createRoute } from '@hono/zod-openapi';
import { requireAdmin, requireUser } from '../auth/middleware';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { readLeaderboards } from './leaderboards';
import { listDistributions, recordDistribution } from './distributions';
import { writeTx } from '../changes/write-tx';
import { DistributionPage, Leaderboards, RecordDistributionRequest, RecordedDistribution } from '#sync/rest-api/rewards';
import { DistributionPageQuery } from './schemas';

const json = <T>(schema: T) => ({ 'application/json': { schema } });

const leaderboards = createRoute({
  method: 'get',
  path: '/leaderboards',
  tags: ['rewards'],
  summary: 'Best Users (top 20), Best Viewers (top 3), your own standing, the next date and the last winners',
  security: bearerSecurity,
  middleware: [requireUser],
  responses: { 200: { description: 'The current standings.', content: json(Leaderboards) }, ...errorResponses(401, 403) },
});

/** /api/rewards: what every member may read. */
export function rewardsRouter() {
  return createRouter().openapi(leaderboards, async (c) => {
    const { deps } = c.var;
    return c.json(await readLeaderboards(deps.db, c.var.user.id, deps.now()), 200);
  });
}

const adminOnly = { tags: ['admin', 'rewards'], security: bearerSecurity, middleware: [requireUser, requireAdmin] };

const distribute = createRoute({
  ...adminOnly,
  method: 'post',
  path: '/distributions',
  summary: 'Record a distribution: the current standings and prizes become the winners of the period, and scoring starts afresh',
  request: { body: { required: true, content: json(RecordDistributionRequest) } },
  responses: {
    201: { description: 'Recorded.', content: json(RecordedDistribution) },
    200: { description: 'This period was already distributed: the same distribution, nothing new written.', content: json(RecordedDistribution) },
    ...errorResponses(400, 401, 403, 409),
  },
});

const list = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/distributions',
  summary: 'Past distributions with their winners, newest first',
  request: { query: DistributionPageQuery },
  responses: { 200: { description: 'A page of distributions.', content: json(DistributionPage) }, ...errorResponses(400, 401, 403) },
});

/** /api/admin/rewards: administrators only. */
export function adminRewardsRouter() {
  return createRouter()
    .openapi(distribute, async (c) => {
      const { deps, user } = c.var;
      const { period_start } = c.req.valid('json');
      const result = await writeTx(deps, (trx, changes) => recordDistribution(trx, changes, { adminId: user.id, periodStart: period_start, clock: deps.now }));
      return c.json(result, result.created ? 201 : 200);
    })
    .openapi(list, async (c) => {
      const { limit, cursor } = c.req.valid('query');
      return c.json(await listDistributions(c.var.deps.db, { limit, before: cursor === undefined ? null : Number(cursor) }), 200);
    });
}
