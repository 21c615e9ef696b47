import type { ReactNode } from 'react';
import { RecordDistributionButton } from '../rewards/RecordDistributionButton';

/**
 * SLOT for the rewards feature (docs/rewards.md, "Distributions"): its admin action ('Record distribution') renders at the
 * bottom of the Rewards tab. Return it from here, e.g. `return <RecordDistribution />;` imported
 * from client/features/rewards/. Nothing renders while this returns null.
 */
export function RewardsAdminActions(): ReactNode {
  return <RecordDistributionButton />;
}
