export { RewardsPage } from './RewardsPage';
export { RecordDistributionButton } from './RecordDistributionButton';
