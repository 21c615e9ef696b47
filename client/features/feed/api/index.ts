export { useFeed, type FeedState } from './useFeed';
export type { FeedCard } from '../components/types';
export { useFeedActions, type FeedActions } from './useFeedActions';
