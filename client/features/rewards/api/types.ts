/** GET /api/rewards/leaderboards and the sync pull's `leaderboards` (server/rewards/leaderboards.ts). */
export interface LeaderboardEntry {
  rank: number;
  user_id: string;
  user_name: string;
  points: number;
  prize_rupees: number;
}

export interface OwnStanding {
  rank: number;
  points: number;
}

export interface DistributionSummary {
  id: string;
  period_start: number;
  created_at: number;
  best_users: LeaderboardEntry[];
  best_viewers: LeaderboardEntry[];
}

export interface Leaderboards {
  viewer_id: string;
  best_users: LeaderboardEntry[];
  best_viewers: LeaderboardEntry[];
  me: { creator: OwnStanding | null; viewer: OwnStanding | null };
  distribution_date: string | null;
  period_start: number;
  last_distribution: DistributionSummary | null;
  as_of: number;
}

/** A stored snapshot is only trusted when it has the shape this screen reads. */
export function isLeaderboards(v: unknown): v is Leaderboards {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return Array.isArray(o.best_users) && Array.isArray(o.best_viewers) && typeof o.me === 'object' && o.me !== null && typeof o.as_of === 'number';
}
