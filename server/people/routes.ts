import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { ApiError, notFound } from '../http/errors';
import { parseCursor } from '../feed/cursor';
import { FeedPageSchema } from '#sync/protocol/messages';
import { CreatorProfileSchema, PeoplePageSchema } from '#sync/rest-api/people';
import { HANDLE_PATTERN, normalizeHandle } from '#sync/protocol/handles';
import type { Kysely } from 'kysely';
import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { readVia } from '../feed/items';
import { filtersVideos, readSafety } from '../feed/safety';
import type { Database } from '#db/schema';
import { activeMemberId, readCreator, readPeoplePage, readSuggested } from './reads';
import { readCreatorVideos, readFollowingFeed } from './video-reads';

// The people reads (docs/data-model.md, "People" and "The people reads"). Writes
// (follow, unfollow, setHandle) are mutations through POST /api/sync/push, never routes here.

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

// Longer than any handle with its @ and spaces: what is past this is not a handle at all.
const HandleParam = z.object({ handle: z.string().max(64) });
// Any text: parseCursor answers 400 invalid_cursor for whatever it did not make, long ones too.
const CursorQuery = z.object({ cursor: z.string().optional() });

const NO_SUCH_MEMBER = 'No member has this handle.';

/** The caller's blocks and mutes probe (server/feed/safety.ts): the filtered reads only for those who have any. */
const safetyOf = (deps: AppDeps, viewer: string) => readSafety(readVia(deps.engine, deps.db), viewer);

function handleOf(typed: string): string {
  const handle = normalizeHandle(typed);
  if (!HANDLE_PATTERN.test(handle)) throw new ApiError(400, 'invalid_request', 'That is not a handle: 3 to 30 letters, digits, _ or . starting with a letter.');
  return handle;
}

/**
 * The routes' OpenAPI descriptions. requireUser comes from the app (server/app.ts): server/auth
 * imports this folder (a free handle at sign-up), so this folder must not import it back.
 */
function routesFor(requireUser: MiddlewareHandler<AppEnv>) {
  const memberGet = <P extends string>(path: P, summary: string) => ({
    method: 'get' as const,
    path,
    tags: ['people'],
    summary,
    security: bearerSecurity,
    middleware: [requireUser],
  });

  const creator = createRoute({
    ...memberGet('/people/{handle}', 'A creator page: the member, their counts and how they and the caller follow each other'),
    request: { params: HandleParam },
    responses: { 200: { description: 'The member.', content: json(CreatorProfileSchema) }, ...errorResponses(400, 401, 403, 404) },
  });

  const creatorVideos = createRoute({
    ...memberGet('/people/{handle}/videos', "A creator's ready videos, newest first, 20 a page"),
    request: { params: HandleParam, query: CursorQuery },
    responses: { 200: { description: 'One page of videos.', content: json(FeedPageSchema) }, ...errorResponses(400, 401, 403, 404) },
  });

  const list = (list: 'followers' | 'following') =>
    createRoute({
      ...memberGet(
        `/people/{handle}/${list}`,
        list === 'followers' ? 'Who follows the member, newest follow first' : 'Whom the member follows, newest follow first',
      ),
      request: { params: HandleParam, query: CursorQuery },
      responses: { 200: { description: 'One page of people.', content: json(PeoplePageSchema) }, ...errorResponses(400, 401, 403, 404) },
    });

  const suggested = createRoute({
    ...memberGet('/people/suggested', 'Who to follow: the most-followed members the caller does not follow'),
    responses: { 200: { description: 'Up to 20 people, in one page.', content: json(PeoplePageSchema) }, ...errorResponses(401, 403) },
  });

  const followingFeed = createRoute({
    ...memberGet('/feed/following', 'The ready videos of the people the caller follows, newest first, 20 a page'),
    request: { query: CursorQuery },
    responses: { 200: { description: 'One page of the Following feed.', content: json(FeedPageSchema) }, ...errorResponses(400, 401, 403) },
  });
  return { creator, creatorVideos, list, suggested, followingFeed };
}

/** Mounted at /api: /api/people/… and /api/feed/following. */
export function peopleRouter(requireUser: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  const route = routesFor(requireUser);
  const creatorOf = async (db: Kysely<Database>, viewer: string, typed: string) => {
    const creator = await readCreator(db, viewer, handleOf(typed));
    if (!creator) throw notFound(NO_SUCH_MEMBER);
    return creator;
  };
  const ownerOf = async (db: Kysely<Database>, viewer: string, typed: string) => {
    const id = await activeMemberId(db, viewer, handleOf(typed));
    if (!id) throw notFound(NO_SUCH_MEMBER);
    return id;
  };
  // /people/suggested is answered by the /people/{handle} route ("suggested" is a reserved handle,
  // sync/protocol/handles.ts): a static path beside a parameter at the same depth makes the app
  // fall back from Hono's RegExpRouter to its slower trie (docs/benchmarks.md, API floor).
  const { middleware: _suggestedMiddleware, ...suggestedDoc } = route.suggested;
  router.openAPIRegistry.registerPath(suggestedDoc);
  const suggested: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (c.req.param('handle') !== 'suggested') return next();
    const { deps, user } = c.var;
    const { blocks } = await safetyOf(deps, user.id);
    return c.json({ items: await readSuggested(deps.db, user.id, blocks), next_cursor: null }, 200);
  };
  router.openapi({ ...route.creator, middleware: [requireUser, suggested] }, async (c) =>
    c.json(await creatorOf(c.var.deps.db, c.var.user.id, c.req.valid('param').handle), 200),
  );
  router.openapi(route.creatorVideos, async (c) => {
    const after = parseCursor(c.req.valid('query').cursor);
    const owner = await ownerOf(c.var.deps.db, c.var.user.id, c.req.valid('param').handle);
    return c.json(await readCreatorVideos(c.var.deps.db, c.var.user.id, owner, after), 200);
  });
  for (const list of ['followers', 'following'] as const) {
    router.openapi(route.list(list), async (c) => {
      const after = parseCursor(c.req.valid('query').cursor);
      const { deps, user } = c.var;
      const owner = await ownerOf(deps.db, user.id, c.req.valid('param').handle);
      return c.json(await readPeoplePage(deps.db, user.id, owner, list, after, (await safetyOf(deps, user.id)).blocks), 200);
    });
  }
  router.openapi(route.followingFeed, async (c) => {
    const after = parseCursor(c.req.valid('query').cursor);
    const { deps, user } = c.var;
    return c.json(await readFollowingFeed(deps.db, deps.engine.dialect, user.id, after, filtersVideos(await safetyOf(deps, user.id))), 200);
  });
  return router;
}
