import { z } from '@hono/zod-openapi';
import { PageLimit } from '../http/openapi-helpers';

// Query parameters of /api/admin/rewards (bodies and answers are shared: sync/rest-api/rewards.ts).

export const DistributionPageQuery = z.object({
  limit: PageLimit,
  cursor: z
    .string()
    .regex(/^\d{1,16}$/, 'Not a cursor.')
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
});
