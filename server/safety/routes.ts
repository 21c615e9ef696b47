import { createRoute } from '@hono/zod-openapi';
import { REPORT_REASONS } from '#sync/protocol/report-reasons';
import { ReportReasonsAnswer } from '#sync/rest-api/moderation';
import { requireUser } from '../auth/middleware';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';

const reasons = createRoute({
  method: 'get',
  path: '/report-reasons',
  tags: ['safety'],
  summary: 'Why a member may report a video, a comment or a member: the codes `report` takes, with their labels',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  responses: {
    200: { description: 'The reasons, in the order shown.', content: { 'application/json': { schema: ReportReasonsAnswer } } },
    ...errorResponses(401, 403),
  },
});

/** GET /api/report-reasons (signed-in members). */
export function safetyRouter() {
  return createRouter().openapi(reasons, (c) =>
    c.json(
      REPORT_REASONS.map(({ code, label }) => ({ code, label })),
      200,
    ),
  );
}
