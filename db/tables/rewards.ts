// The prize settings, maintained scores and recorded distributions (docs/rewards.md).
// Times are integer milliseconds since the epoch; booleans are 0/1 integers (db/schema.ts).

export interface PrizesTable {
  /** 'best_user' | 'best_viewer' */
  board: string;
  rank: number;
  amount_rupees: number;
}

export interface ScoresTable {
  user_id: string;
  creator_points: number;
  viewer_points: number;
  /** When the current points total was first reached: the tie-break ("earlier reach first"). */
  creator_reached_at: number;
  viewer_reached_at: number;
}

/** A member's counted viewer actions on one UTC day of the current period (the daily cap applies to these). */
export interface ViewerDaysTable {
  user_id: string;
  /** floor(created_at / 86 400 000): the UTC day. */
  day: number;
  actions: number;
}

/** A member's credited watch time (migration 0007, server/rewards/view-rules.ts). */
export interface ViewCreditsTable {
  user_id: string;
  /** Server time of their previous credited push of views. */
  credited_at: number;
  /** Where their credited watches, laid end to end, end (at most credited_at + the allowance). */
  credited_until: number;
}

/** A member an admin took out of one scoring period (migration 0007). */
export interface RewardVoidsTable {
  period_start: number;
  user_id: string;
  created_at: number;
  created_by: string;
}

export interface DistributionsTable {
  id: string;
  /** Start of the scoring period this distribution closes; unique, so a period is never distributed twice. */
  period_start: number;
  created_at: number;
  created_by: string;
}

export interface DistributionWinnersTable {
  distribution_id: string;
  board: string;
  rank: number;
  user_id: string;
  user_name: string;
  points: number;
  prize_rupees: number;
}
