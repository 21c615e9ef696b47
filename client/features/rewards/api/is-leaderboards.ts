import type { Leaderboards } from '#sync/rest-api/rewards';

/**
 * A stored snapshot is only trusted when it has the shape this screen reads. A hand check, not
 * the zod schema, so the rewards chunk does not pull zod in.
 */
export function isLeaderboards(v: unknown): v is Leaderboards {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return Array.isArray(o.best_users) && Array.isArray(o.best_viewers) && typeof o.me === 'object' && o.me !== null && typeof o.as_of === 'number';
}
