import { useMemo } from 'react';
import type { FeedItem } from '#sync/protocol/messages';
import { usePagedRead } from '#client/lib/usePagedRead';
import { useFeed } from '../api/useFeed';
import { useLocalOverlay } from '../api/useLocalOverlay';
import type { FeedCard } from '../components/types';
import type { WatchList } from './watch-list';

export interface WatchItems {
  items: FeedCard[];
  /** The first items are on their way. */
  loading: boolean;
  /** The list could not be read (offline with nothing kept, or refused) and holds nothing. */
  failed: boolean;
  hasMore: boolean;
  loadMore(): void;
}

/** A queued upload is no video yet, and a failed one has nothing to play: the viewer skips both. */
const watchable = (v: FeedCard) => !v.upload && v.media_status !== 'failed';

/**
 * The viewer's sequence: the feed from the local database (the order /home shows) or a server list
 * read page by page, shown as the device knows each video (queued likes applied).
 */
export function useWatchList(list: WatchList): WatchItems {
  const feed = useFeed();
  const read = usePagedRead<FeedItem>(list.kind === 'server' ? list.path : null);
  const overlaid = useLocalOverlay(read.items);
  const source = list.kind === 'feed' ? feed.items : overlaid;
  const items = useMemo(() => source.filter(watchable), [source]);
  if (list.kind === 'feed') {
    return { items, loading: feed.status === 'loading', failed: false, hasMore: feed.hasMore, loadMore: feed.loadMore };
  }
  return { items, loading: read.loading, failed: !!read.error && read.items.length === 0, hasMore: read.hasMore, loadMore: read.loadMore };
}
