import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { errorResponses } from '../http/openapi-helpers';
import { notFound } from '../http/errors';
import { readRewardsBreakdown, voidMember } from '../rewards/breakdown';
import { writeTx } from '../changes/write-tx';
import { adminOnly } from './guard';
import { recordAudit } from './audit';
import { RewardsBreakdown, VoidRequest, VoidResult } from '#sync/rest-api/admin';

const json = <T>(schema: T) => ({ 'application/json': { schema } });

const breakdown = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/rewards/breakdown',
  summary: "Each leader's points of the current period by source, what the daily cap held back, and who was voided",
  responses: { 200: { description: 'The breakdown.', content: json(RewardsBreakdown) }, ...errorResponses(401, 403) },
});

const voidPoints = createRoute({
  ...adminOnly,
  method: 'post',
  path: '/rewards/voids',
  summary: "Void a member's points for the current period",
  description:
    "The member is out of this period's scoring until the next distribution: their points, the points their actions gave others and the points others earned on their videos all go, as with a suspension, but the account keeps working. Audited.",
  request: { body: { required: true, content: json(VoidRequest) } },
  responses: {
    201: { description: 'Voided.', content: json(VoidResult) },
    200: { description: 'Already voided for this period: nothing changed.', content: json(VoidResult) },
    ...errorResponses(400, 401, 403, 404),
  },
});

/** /api/admin/rewards/breakdown and /voids: auditing the boards before prizes are paid. */
export function adminRewardsAuditRouter() {
  return createRouter()
    .openapi(breakdown, async (c) => c.json(await readRewardsBreakdown(c.var.deps.db), 200))
    .openapi(voidPoints, async (c) => {
      const { user_id } = c.req.valid('json');
      const { deps, user } = c.var;
      const done = await writeTx(deps, async (trx, changes) => {
        const done = await voidMember(trx, changes, { userId: user_id, adminId: user.id });
        if (done?.result.created) {
          await recordAudit(
            trx,
            {
              actorId: user.id,
              action: 'rewards.void',
              target: user_id,
              details: { period_start: done.result.period_start, points_before: done.pointsBefore },
            },
            changes.now,
          );
        }
        return done;
      });
      if (!done) throw notFound('No such user.');
      return c.json(done.result, done.result.created ? 201 : 200);
    });
}
