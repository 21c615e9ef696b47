import * as z from 'zod';

// GET /api/rewards/leaderboards (also the sync pull's `leaderboards`) and the admin distributions,
// shared by the server (OpenAPI, types) and the rewards screens.

export const LeaderboardEntry = z
  .object({ rank: z.number().int(), user_id: z.string(), user_name: z.string(), points: z.number().int(), prize_rupees: z.number().int() })
  .meta({ id: 'LeaderboardEntry' });
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

export const OwnStanding = z.object({ rank: z.number().int(), points: z.number().int() });
export type OwnStanding = z.infer<typeof OwnStanding>;

export const DistributionSummary = z
  .object({
    id: z.string(),
    period_start: z.number().int(),
    created_at: z.number().int(),
    best_users: z.array(LeaderboardEntry),
    best_viewers: z.array(LeaderboardEntry),
  })
  .meta({ id: 'Distribution' });
export type DistributionSummary = z.infer<typeof DistributionSummary>;

export const Leaderboards = z
  .object({
    /** Whose `me` this is: a device that changes hands ignores another member's snapshot. */
    viewer_id: z.string(),
    best_users: z.array(LeaderboardEntry),
    best_viewers: z.array(LeaderboardEntry),
    /** The signed-in member's standing, even outside the top; null without points. */
    me: z.object({ creator: OwnStanding.nullable(), viewer: OwnStanding.nullable() }),
    /** YYYY-MM-DD set by an admin, or null ('To be announced'). */
    distribution_date: z.string().nullable(),
    /** When the current scoring period began (0 before the first distribution); a distribution closes it. */
    period_start: z.number().int().meta({ description: 'Start of the current scoring period; send it to record a distribution.' }),
    last_distribution: DistributionSummary.nullable(),
    /** Server time of this snapshot (shown offline). */
    as_of: z.number().int(),
  })
  .meta({ id: 'Leaderboards' });
export type Leaderboards = z.infer<typeof Leaderboards>;

export const RecordDistributionRequest = z
  .strictObject({
    period_start: z.number().int().min(0).meta({
      description: 'The period being closed, as read from GET /api/rewards/leaderboards; a retry with the same value returns the same distribution.',
    }),
  })
  .meta({ id: 'RecordDistributionRequest' });
export type RecordDistributionRequest = z.infer<typeof RecordDistributionRequest>;

export const RecordedDistribution = z
  .object({
    distribution: DistributionSummary,
    /** false when this period was already distributed (a retry): nothing was written. */
    created: z.boolean(),
  })
  .meta({ id: 'RecordedDistribution' });
export type RecordedDistribution = z.infer<typeof RecordedDistribution>;

/** A past distribution as the admin list shows it: the summary and who recorded it. */
export const RecordedDistributionItem = DistributionSummary.and(z.object({ created_by: z.string() }));
export type RecordedDistributionItem = z.infer<typeof RecordedDistributionItem>;

export const DistributionPage = z.object({ items: z.array(RecordedDistributionItem), next_cursor: z.string().nullable() }).meta({ id: 'DistributionPage' });
export type DistributionPage = z.infer<typeof DistributionPage>;
