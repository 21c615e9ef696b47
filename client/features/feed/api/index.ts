export { useFeed, type FeedState } from './useFeed';
export type { FeedActions, FeedCard } from '../components/types';
export { useFeedActions } from './useFeedActions';
