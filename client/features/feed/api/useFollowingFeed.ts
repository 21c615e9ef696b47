import { useLiveQuery } from 'dexie-react-hooks';
import type { FeedItem } from '#sync/protocol/messages';
import { usePagedRead } from '#client/lib/usePagedRead';
import { getClientDb } from '#client/sync/active-engine';
import { hiddenFromFeeds, readHiddenMembers } from '#client/sync/queries';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import type { FeedCard } from '../components/types';
import { useLocalOverlay } from './useLocalOverlay';

export interface FollowingFeed {
  /** How many people the member follows (undefined while it is read). */
  followed: number | undefined;
  items: FeedCard[];
  loading: boolean;
  /** Status 0: offline with no page kept; anything else: the server refused. Null when fine. */
  errorStatus: number | null;
  hasMore: boolean;
  loadMore(): void;
}

/**
 * GET /api/feed/following page by page (the service worker keeps the pages for offline), read
 * again when the follows the server confirmed change, so a new follow's videos come in. A blocked
 * or muted member's videos are left out at once, offline too.
 */
export function useFollowingFeed(): FollowingFeed {
  const engine = useSyncEngine();
  const me = engine?.userId ?? null;
  const follows = useLiveQuery(async () => {
    if (!me) return undefined;
    const db = getClientDb();
    const [mine, confirmed] = await Promise.all([
      db.follows.where('id').startsWith(`${me}:`).count(),
      db.server_follows.where('id').startsWith(`${me}:`).primaryKeys(),
    ]);
    return { mine, confirmed: confirmed.join(' ') };
  }, [me]);
  const read = usePagedRead<FeedItem>(follows?.mine ? '/api/feed/following' : null, follows?.confirmed);
  // A page the service worker kept (or fetched before a block reached the server) may still hold them.
  const hidden = useLiveQuery(() => readHiddenMembers(getClientDb(), me), [me]);
  const items = useLocalOverlay(read.items).filter((v) => !hidden || !hiddenFromFeeds(hidden, v.user_id));
  return {
    followed: follows?.mine,
    items,
    loading: read.loading,
    errorStatus: read.error ? read.error.status : null,
    hasMore: read.hasMore,
    loadMore: read.loadMore,
  };
}
