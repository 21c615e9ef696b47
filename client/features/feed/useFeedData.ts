import { useFeed } from './api';
import { useLocalProfile } from '#client/sync/useLocalProfile';
import type { FeedCard } from './components/types';

/** The feed hooks (client/features/feed/api) in the shape the cards use. */
export interface FeedData {
  items: FeedCard[];
  loading: boolean;
  error: boolean;
  hasMore: boolean;
  loadMore(): void;
}

export function useFeedData(): FeedData {
  const feed = useFeed();
  return { items: feed.items, loading: feed.status === 'loading', error: feed.error, hasMore: feed.hasMore, loadMore: feed.loadMore };
}

/** The signed-in member's display name from the local profile (the session's copy until it is there). */
export function useProfileName(fallback: string): string {
  const profile = useLocalProfile();
  return profile?.name ?? fallback;
}
