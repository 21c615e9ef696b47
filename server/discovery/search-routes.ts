import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { createRouter } from '../http/router';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { badRequest } from '../http/errors';
import { readVia } from '../feed/items';
import { filtersVideos, readSafety } from '../feed/safety';
import type { AppEnv } from '../context';
import { SEARCH_QUERY_MAX, SEARCH_TYPES, SearchResultsSchema } from '#sync/rest-api/discovery';
import { parseHashtagSearchCursor, parsePeopleCursor, parseVideoCursor } from './search-cursor';
import { searchHashtags } from './search-hashtags';
import { searchPeople } from './search-people';
import { searchVideos } from './search-videos';

// GET /api/search (docs/data-model.md, "Discovery"; docs/decisions/0025-discovery.md, "Search").

const route = (requireUser: MiddlewareHandler<AppEnv>) =>
  createRoute({
    method: 'get',
    path: '/search',
    tags: ['discovery'],
    summary: 'Search people (handle, then name), videos (title and description words) or hashtags (by prefix), 20 a page',
    security: bearerSecurity,
    middleware: [requireUser],
    request: {
      // q's length is checked after trimming, with its own message; any text is taken (never a 500).
      query: z.object({ q: z.string(), type: z.enum(SEARCH_TYPES), cursor: z.string().optional() }),
    },
    responses: {
      200: {
        description: 'One page of results: people, videos (the feed item shape) or hashtags, by type.',
        content: { 'application/json': { schema: SearchResultsSchema } },
      },
      ...errorResponses(400, 401, 403),
    },
  });

/** What was typed, trimmed; 400 invalid_request unless 1 to SEARCH_QUERY_MAX characters. */
function queryOf(raw: string): string {
  const q = raw.trim();
  const length = [...q].length;
  if (length === 0) throw badRequest('q: type something to search for.');
  if (length > SEARCH_QUERY_MAX) throw badRequest(`q: a search is at most ${SEARCH_QUERY_MAX} characters.`);
  return q;
}

/** Mounted at /api. requireUser comes from the app, as for the people reads (server/people/routes.ts). */
export function searchRouter(requireUser: MiddlewareHandler<AppEnv>) {
  return createRouter().openapi(route(requireUser), async (c) => {
    const { type, cursor } = c.req.valid('query');
    const q = queryOf(c.req.valid('query').q);
    const { deps, user } = c.var;
    if (type === 'hashtags') return c.json(await searchHashtags(deps.db, q, parseHashtagSearchCursor(cursor)), 200);
    // The cursor is checked before the blocks probe: a bad one costs no read.
    const people = type === 'people' ? parsePeopleCursor(cursor) : null;
    const videos = type === 'videos' ? parseVideoCursor(cursor) : null;
    const filtered = filtersVideos(await readSafety(readVia(deps.engine, deps.db), user.id));
    const dialect = deps.engine.dialect;
    if (type === 'people') return c.json(await searchPeople(deps.db, dialect, user.id, q, people, filtered), 200);
    return c.json(await searchVideos(deps.db, dialect, user.id, q, videos, filtered), 200);
  });
}
