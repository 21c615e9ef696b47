import type { FeedVideo } from './components/types';

/** Adapter over the feed data hooks (client/features/feed/api). */
export interface FeedData {
  items: FeedVideo[];
  loading: boolean;
  hasMore: boolean;
  loadMore(): void;
}

export function useFeedData(): FeedData {
  return { items: [], loading: false, hasMore: false, loadMore: () => {} };
}

export interface FeedMutations {
  toggleLike(videoId: string): void;
  shareVideo(videoId: string): void;
  deleteVideo(videoId: string): Promise<void>;
  recordView(videoId: string, watchedMs: number): void;
}

export function useFeedMutations(): FeedMutations {
  return { toggleLike: () => {}, shareVideo: () => {}, deleteVideo: async () => {}, recordView: () => {} };
}

/** The signed-in member's display name from the local profile. */
export function useProfileName(fallback: string): string {
  return fallback;
}
