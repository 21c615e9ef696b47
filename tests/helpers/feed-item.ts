import type { FeedItem } from '#sync/protocol/messages';

/** A ready FeedItem as a pull sends it (every field set, no counts), with `overrides` applied. */
export function feedItem(overrides: Partial<FeedItem> & Pick<FeedItem, 'id'>): FeedItem {
  return {
    user_id: 'u',
    user_name: 'U',
    user_handle: 'u',
    title: overrides.id,
    description: '',
    video_url: `/media/${overrides.id}`,
    poster_url: null,
    created_at: new Date(1_700_000_000_000).toISOString(),
    duration_ms: 1000,
    media_status: 'ready',
    media_progress: 100,
    media_error: null,
    hls_url: null,
    mp4_url: null,
    captions_url: null,
    likes_count: 0,
    comments_count: 0,
    shares_count: 0,
    views_count: 0,
    liked_by_me: false,
    ...overrides,
  };
}

/** A pull answer's lists, all empty (and no profile or boards): a test spreads it and sets what it is about. */
export const emptyPullLists = () => ({
  deleted_videos: [] as string[],
  comments: [],
  deleted_comments: [],
  comments_loaded: [],
  profile: null,
  leaderboards: null,
  last_mutation_id: 0,
  notifications: [],
  deleted_notifications: [],
  follows: [],
  deleted_follows: [],
  blocks: [],
  deleted_blocks: [],
  mutes: [],
  deleted_mutes: [],
});
