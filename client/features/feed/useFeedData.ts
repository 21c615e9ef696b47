import { useMemo } from 'react';
import { useFeed, useFeedActions } from './api';
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

export interface FeedMutations {
  setLike(videoId: string, liked: boolean): void;
  shareVideo(videoId: string): void;
  deleteVideo(videoId: string): Promise<void>;
  recordView(videoId: string, watchedMs: number): void;
}

export function useFeedMutations(): FeedMutations {
  const a = useFeedActions();
  return useMemo(
    () => ({
      // Like errors are only logged (the product's copy has no toast for them); a refusal by the server is announced by the sync bridge.
      setLike: (videoId: string, liked: boolean) => void a.setLike({ videoId, liked }).catch((e: unknown) => console.warn('like failed', e)),
      shareVideo: (id: string) => void a.shareVideo(id).catch((e: unknown) => console.warn('share not recorded', e)),
      deleteVideo: (id: string) => a.deleteVideo(id),
      recordView: (id: string, ms: number) => void a.recordView(id, ms).catch(() => undefined),
    }),
    [a],
  );
}

/** The signed-in member's display name from the local profile (the session's copy until it is there). */
export function useProfileName(fallback: string): string {
  const profile = useLocalProfile();
  return profile?.name ?? fallback;
}
