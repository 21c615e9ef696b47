import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { errorResponses } from '../http/openapi-helpers';
import { writeTx } from '../changes/write-tx';
import { hashtagOf } from '../discovery/hashtag-param';
import { AdminHashtagPageSchema, AdminHashtagSchema } from '#sync/rest-api/discovery';
import { adminOnly } from './guard';
import { recordAudit } from './audit';
import { listHashtags, setHashtagHidden } from './hashtags';
import { PageQuery } from './schemas';

const json = <T>(schema: T) => ({ 'application/json': { schema } });

const ListQuery = PageQuery.extend({
  q: z
    .string()
    .max(100)
    .default('')
    .openapi({ param: { name: 'q', in: 'query' }, description: 'The start of a tag (a leading # is dropped); empty: the most used tags.' }),
});

const TagParam = z.object({
  tag: z
    .string()
    .max(400)
    .openapi({ param: { name: 'tag', in: 'path' } }),
});

const list = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/hashtags',
  summary: 'Hashtags by prefix (in tag order), or the most used first when q is empty, with whether each is hidden',
  request: { query: ListQuery },
  responses: { 200: { description: 'A page of hashtags.', content: json(AdminHashtagPageSchema) }, ...errorResponses(400, 401, 403) },
});

const toggle = (action: 'hide' | 'unhide') =>
  createRoute({
    ...adminOnly,
    method: 'post',
    path: `/hashtags/{tag}/${action}`,
    summary:
      action === 'hide'
        ? 'Hide a hashtag from search and its page (a tag nobody used yet is born hidden); a second hide changes nothing'
        : 'Show a hidden hashtag again; a tag that is not hidden is left as it is',
    request: { params: TagParam },
    responses: { 200: { description: 'The tag as it is now.', content: json(AdminHashtagSchema) }, ...errorResponses(400, 401, 403) },
  });

/** /api/admin/hashtags (docs/moderation.md, "Hidden hashtags"): audited only when the state really changes. */
export function adminHashtagsRouter() {
  const router = createRouter().openapi(list, async (c) => {
    const { q, cursor, limit } = c.req.valid('query');
    return c.json(await listHashtags(c.var.deps.db, q, cursor, limit), 200);
  });
  for (const action of ['hide', 'unhide'] as const) {
    router.openapi(toggle(action), async (c) => {
      const tag = hashtagOf(c.req.valid('param').tag);
      const { deps, user } = c.var;
      const answer = await writeTx(deps, async (trx, changes) => {
        const { changed, tag: now } = await setHashtagHidden(trx, tag, action === 'hide', changes.now);
        if (changed) await recordAudit(trx, { actorId: user.id, action: `hashtag.${action}`, target: tag }, changes.now);
        return now;
      });
      return c.json(answer, 200);
    });
  }
  return router;
}
