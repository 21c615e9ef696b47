import { z } from '@hono/zod-openapi';
import { PageLimit } from '../http/openapi-helpers';

// Path and query parameters of /api/admin (bodies and answers are shared: sync/rest-api/admin.ts).

export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not an id.')
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const PageQuery = z.object({
  limit: PageLimit,
  cursor: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
});

export const UserPageQuery = PageQuery.extend({
  q: z
    .string()
    .trim()
    .max(100)
    .default('')
    .openapi({ param: { name: 'q', in: 'query' }, description: 'Part of a name or e-mail.' }),
});
