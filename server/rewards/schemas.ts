import { z } from '@hono/zod-openapi';

// Query parameters of /api/admin/rewards (bodies and answers are shared: sync/rest-api/rewards.ts).

export const DistributionPageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .openapi({ param: { name: 'limit', in: 'query' } }),
  cursor: z
    .string()
    .regex(/^\d{1,16}$/, 'Not a cursor.')
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
});
