import { z, type RouteConfig } from '@hono/zod-openapi';
import { ErrorSchema } from '#sync/rest-api/errors';

const errorContent = { 'application/json': { schema: ErrorSchema } } as const;

/** The error responses every operation may give, documented once. */
export function errorResponses(...statuses: Array<400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 502 | 503>) {
  const text: Record<number, string> = {
    400: 'The request is malformed or fails validation.',
    401: 'Missing, invalid or expired access token.',
    403: 'Signed in, but not allowed (suspended, unpaid or not an administrator).',
    404: 'Not found.',
    409: 'Conflicts with the current state.',
    413: 'The request body is too large.',
    415: 'Unsupported content type.',
    429: 'Too many requests; see Retry-After.',
    502: 'An upstream provider failed.',
    503: 'Temporarily unavailable; see Retry-After when given.',
  };
  return Object.fromEntries(statuses.map((s) => [s, { description: text[s] ?? 'Error', content: errorContent }])) as RouteConfig['responses'];
}

/** Marks an operation as needing `Authorization: Bearer <access_token>`. */
export const bearerSecurity = [{ bearerAuth: [] }];

/** `?limit=` of a paged list: 1-100, 20 when absent. */
export const PageLimit = z.coerce
  .number()
  .int()
  .min(1)
  .max(100)
  .default(20)
  .openapi({ param: { name: 'limit', in: 'query' } });
