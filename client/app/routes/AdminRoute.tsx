import { AdminPage } from '#client/features/admin/AdminPage';
import { RecordDistributionButton } from '#client/features/rewards/RecordDistributionButton';

/** /admin: the admin area, with the rewards feature's 'Record distribution' at the bottom of its Rewards tab. */
export function AdminRoute() {
  return <AdminPage rewardsActions={<RecordDistributionButton />} />;
}
