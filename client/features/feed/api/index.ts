export { useFeed, type FeedItem, type FeedState } from './useFeed';
export { useFeedActions, type FeedActions } from './useFeedActions';
