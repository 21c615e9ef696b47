import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { requireUser } from '../auth/middleware';
import { notFound } from '../http/errors';
import { parseCursor } from '../feed/cursor';
import { CommentsPageSchema, FeedPageSchema } from '#sync/protocol/messages';
import { IdSchema } from '#sync/protocol/ids';
import { readCommentsPage, readFeedPageJson, readVia, sqliteFeedPageJson } from './feed-rows';

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().max(200).optional(),
});

const CommentsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

const feedRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['videos'],
  summary: 'The feed, newest first, keyset-paged',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { query: PageQuery },
  responses: { 200: { description: 'One page of the feed.', content: json(FeedPageSchema) }, ...errorResponses(400, 401, 403) },
});

const commentsRoute = createRoute({
  method: 'get',
  path: '/{id}/comments',
  tags: ['videos'],
  summary: 'Comments of a video, newest first',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }), query: CommentsQuery },
  responses: { 200: { description: 'One page of comments.', content: json(CommentsPageSchema) }, ...errorResponses(400, 401, 403, 404) },
});

export function videosRouter() {
  const router = createRouter();
  router.openapi(feedRoute, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    const after = parseCursor(cursor);
    const { deps, user } = c.var;
    const { engine } = deps;
    // On SQLite, holding the Kysely connection keeps this raw statement out of another request's
    // open transaction; PostgreSQL runs it on any pooled connection.
    const body =
      engine.dialect === 'sqlite'
        ? await deps.db.connection().execute(async () => sqliteFeedPageJson(engine.sqlite, user.id, limit, after))
        : await readFeedPageJson(readVia(engine, deps.db), user.id, limit, after);
    // The database built the JSON (same shape as FeedPageSchema, checked by the tests).
    return c.body(body, 200, { 'content-type': 'application/json; charset=UTF-8' }) as never;
  });
  router.openapi(commentsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { limit, cursor } = c.req.valid('query');
    const after = parseCursor(cursor);
    const { deps, user } = c.var;
    const page = await deps.db.connection().execute(async (conn) => {
      const video = await conn.selectFrom('videos').select('id').where('id', '=', id).executeTakeFirst();
      if (!video) return null;
      return readCommentsPage(readVia(deps.engine, conn), user.id, id, limit, after);
    });
    if (!page) throw notFound('This video no longer exists.');
    return c.json(page, 200);
  });
  return router;
}
