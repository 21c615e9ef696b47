import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { notFound } from '../http/errors';
import { readVia } from '../feed/items';
import { filtersVideos, readSafety } from '../feed/safety';
import type { AppEnv } from '../context';
import { HASHTAG_SORTS, HashtagPageSchema } from '#sync/rest-api/discovery';
import { hashtagOf } from './hashtag-param';
import { parseHashtagCursor, readHashtag, readHashtagVideos } from './hashtag-page';

// GET /api/hashtags/{tag} (docs/decisions/0025-discovery.md, "Hashtags"). A tag nobody used yet
// answers an empty page (a link typed by hand is not an error); a tag an admin hid answers 404.

const page = (requireUser: MiddlewareHandler<AppEnv>) =>
  createRoute({
    method: 'get',
    path: '/hashtags/{tag}',
    tags: ['discovery'],
    summary: "A hashtag's ready videos, newest first (sort=recent, the default) or most liked first (sort=top), 20 a page",
    security: bearerSecurity,
    middleware: [requireUser],
    request: {
      params: z.object({ tag: z.string().max(400) }),
      query: z.object({ sort: z.enum(HASHTAG_SORTS).default('recent'), cursor: z.string().optional() }),
    },
    responses: {
      200: { description: 'One page of the tag.', content: { 'application/json': { schema: HashtagPageSchema } } },
      ...errorResponses(400, 401, 403, 404),
    },
  });

/** Mounted at /api. requireUser comes from the app, as for the people reads (server/people/routes.ts). */
export function hashtagRouter(requireUser: MiddlewareHandler<AppEnv>) {
  return createRouter().openapi(page(requireUser), async (c) => {
    const tag = hashtagOf(c.req.valid('param').tag);
    const { sort, cursor: raw } = c.req.valid('query');
    const cursor = parseHashtagCursor(sort, raw);
    const { deps, user } = c.var;
    const row = await readHashtag(deps.db, tag);
    if (row && Number(row.hidden) === 1) throw notFound('This hashtag is not available.');
    const filtered = filtersVideos(await readSafety(readVia(deps.engine, deps.db), user.id));
    const { items, next_cursor } = await readHashtagVideos(deps.db, user.id, tag, sort, cursor, filtered);
    return c.json({ tag, videos_count: Number(row?.videos_count ?? 0), items, next_cursor }, 200);
  });
}
