export { useLeaderboards, refreshLeaderboards, type LeaderboardsState } from './useLeaderboards';
export { useRecordDistribution, type RecordResult } from './useRecordDistribution';
export type { Leaderboards, LeaderboardEntry, OwnStanding, DistributionSummary } from '#sync/rest-api/rewards';
