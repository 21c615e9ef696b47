import { createRoute, z } from '@hono/zod-openapi';
import { ReportQueuePage, ResolveReportsAnswer, ResolveReportsBody, REPORT_STATES } from '#sync/rest-api/moderation';
import { createRouter } from '../http/router';
import { errorResponses } from '../http/openapi-helpers';
import { writeTx } from '../changes/write-tx';
import { listReportQueue } from '../safety/queue';
import { adminOnly } from './guard';
import { decodeTimeCursor, encodeTimeCursor } from './cursor';
import { resolveReports, type RunMutation } from './resolve-report';
import { PageQuery } from './schemas';

const json = <T>(schema: T) => ({ 'application/json': { schema } });

const QueueQuery = PageQuery.extend({
  state: z
    .enum(REPORT_STATES)
    .default('open')
    .openapi({ param: { name: 'state', in: 'query' }, description: 'open (the default), actioned or dismissed.' }),
});

const list = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/reports',
  summary: 'The moderation queue: one entry per reported target, open ones oldest first, resolved ones newest first',
  request: { query: QueueQuery },
  responses: { 200: { description: 'A page of the queue.', content: json(ReportQueuePage) }, ...errorResponses(400, 401, 403) },
});

const resolve = createRoute({
  ...adminOnly,
  method: 'post',
  path: '/reports/resolve',
  summary: 'Resolve every open report of a target at once: dismiss, remove (a video or comment) or suspend (its member); each reporter is told the outcome',
  request: { body: { required: true, content: json(ResolveReportsBody) } },
  responses: {
    200: { description: 'Resolved.', content: json(ResolveReportsAnswer) },
    ...errorResponses(400, 401, 403, 404),
  },
});

/** /api/admin/reports: `runMutation` runs deleteComment for a comment's removal (server/app.ts passes it in). */
export function adminReportsRouter(runMutation: RunMutation) {
  return createRouter()
    .openapi(list, async (c) => {
      const { state, limit, cursor } = c.req.valid('query');
      const { items, next } = await listReportQueue(c.var.deps.db, { state, limit, cursor: decodeTimeCursor(cursor) });
      return c.json({ items, next_cursor: next && encodeTimeCursor(next) }, 200);
    })
    .openapi(resolve, async (c) => {
      const body = c.req.valid('json');
      const { deps, user } = c.var;
      const { answer, suspended } = await writeTx(deps, (trx, changes) => resolveReports({ deps, trx, changes, admin: user, runMutation }, body));
      // Their open event streams would otherwise keep receiving pokes until they reconnect (as the Users tab's suspend).
      if (suspended) deps.liveStreams.endUser(suspended);
      return c.json(answer, 200);
    });
}
