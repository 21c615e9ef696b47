import { z } from '@hono/zod-openapi';

export const LeaderboardEntrySchema = z
  .object({ rank: z.number().int(), user_id: z.string(), user_name: z.string(), points: z.number().int(), prize_rupees: z.number().int() })
  .openapi('LeaderboardEntry');

const OwnStandingSchema = z.object({ rank: z.number().int(), points: z.number().int() }).nullable();

export const DistributionSchema = z
  .object({
    id: z.string(),
    period_start: z.number().int(),
    created_at: z.number().int(),
    best_users: z.array(LeaderboardEntrySchema),
    best_viewers: z.array(LeaderboardEntrySchema),
  })
  .openapi('Distribution');

export const LeaderboardsSchema = z
  .object({
    viewer_id: z.string(),
    best_users: z.array(LeaderboardEntrySchema),
    best_viewers: z.array(LeaderboardEntrySchema),
    me: z.object({ creator: OwnStandingSchema, viewer: OwnStandingSchema }),
    distribution_date: z.string().nullable(),
    period_start: z.number().int().openapi({ description: 'Start of the current scoring period; send it to record a distribution.' }),
    last_distribution: DistributionSchema.nullable(),
    as_of: z.number().int(),
  })
  .openapi('Leaderboards');

export const RecordDistributionBody = z
  .strictObject({
    period_start: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'The period being closed, as read from GET /api/rewards/leaderboards; a retry with the same value returns the same distribution.' }),
  })
  .openapi('RecordDistributionRequest');

export const RecordDistributionResponse = z.object({ distribution: DistributionSchema, created: z.boolean() }).openapi('RecordedDistribution');

export const DistributionPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ param: { name: 'limit', in: 'query' } }),
  cursor: z
    .string()
    .regex(/^\d{1,16}$/, 'Not a cursor.')
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' } }),
});

export const DistributionPageSchema = z
  .object({ items: z.array(DistributionSchema.extend({ created_by: z.string() })), next_cursor: z.string().nullable() })
  .openapi('DistributionPage');
