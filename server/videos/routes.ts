import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { requireUser } from '../auth/middleware';
import { notFound } from '../http/errors';
import { parseCursor } from '../feed/cursor';
import { CommentsPageSchema, FeedPageSchema } from '#sync/protocol/messages';
import { IdSchema } from '#sync/protocol/ids';
import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { readFeedPageJson, readVia, sqliteFeedPageJson } from './feed-rows';
import { readCommentsPage, readThreadPage } from './comment-rows';
import { blockedBetween } from '../feed/safety';

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().max(200).optional(),
});

const CommentsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
  /** A top-level comment of the video: its thread's replies, oldest first, instead of the top-level list. */
  parent: IdSchema.optional(),
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
  summary: "A video's top-level comments (the pinned one first, then newest first), or with ?parent= a thread's replies, oldest first",
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
    // The database built the JSON (same shape as FeedPageSchema, checked by the tests). Sent as bytes,
    // encoded once: a string would be measured for Content-Length and then encoded by the socket write.
    return c.body(Buffer.from(body), 200, { 'content-type': 'application/json; charset=UTF-8' }) as never;
  });
  router.openapi(commentsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { limit, cursor, parent } = c.req.valid('query');
    const after = parseCursor(cursor);
    const { deps, user } = c.var;
    const page = await deps.db.connection().execute(async (conn) => {
      await requireList(conn, user.id, id, parent);
      const via = readVia(deps.engine, conn);
      return parent ? readThreadPage(via, user.id, parent, limit, after) : readCommentsPage(via, user.id, id, limit, after);
    });
    return c.json(page, 200);
  });
  return router;
}

/**
 * 404 unless the video exists and, when a thread is asked for, `parent` is one of its top-level
 * comments (tombstones too) by a member not blocked either way by the viewer: a hidden comment's
 * thread goes with it (server/feed/safety.ts).
 */
async function requireList(db: Kysely<Database>, viewer: string, videoId: string, parent: string | undefined): Promise<void> {
  const video = await db.selectFrom('videos').select('id').where('id', '=', videoId).executeTakeFirst();
  if (!video) throw notFound('This video no longer exists.');
  if (parent === undefined) return;
  const comment = await db.selectFrom('comments').select(['video_id', 'parent_id', 'user_id']).where('id', '=', parent).executeTakeFirst();
  if (!comment || (await blockedBetween(db, viewer, comment.user_id))) throw notFound('This comment no longer exists.');
  if (comment.video_id !== videoId) throw notFound('This comment is not on this video.');
  if (comment.parent_id !== null) throw notFound('A reply has no replies of its own: its thread is listed under its top-level comment.');
}
