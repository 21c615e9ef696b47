import { useCallback, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { FeedItem as ServerFeedItem } from '../../../../sync/protocol/messages';
import { getMeta } from '../../../data/db';
import { CURSOR_KEY, FEED_END_KEY } from '../../../data/apply-pull';
import { getClientDb } from '../../../data/session';
import { useEngineStatus, useSyncEngine } from '../../../data/hooks';

/** A feed card's data: the API item plus whether queued changes of this user touch it. */
export type FeedItem = ServerFeedItem & { pending: boolean };

export interface FeedState {
  items: FeedItem[];
  status: 'loading' | 'ready';
  hasMore: boolean;
  loadMore(): void;
}

/** Mutations that change nothing visible on the card do not mark it pending. */
const INVISIBLE = new Set(['recordView']);

/**
 * The feed from the local database, newest first, with optimistic changes applied. Older pages
 * come from GET /api/videos while online (loadMore).
 *
 * Integration point for uploads: when client/features/upload/api exports usePendingUploads(),
 * its items go on top of `items` here (not yet available when this was written).
 */
export function useFeed(): FeedState {
  const engine = useSyncEngine();
  const status = useEngineStatus();
  const userId = engine?.userId ?? null;
  const data = useLiveQuery(async () => {
    const db = getClientDb();
    const rows = await db.videos.orderBy('[created_ms+id]').reverse().toArray();
    const queued = userId ? await db.outbox.where('user_id').equals(userId).toArray() : [];
    const pending = new Set(queued.filter((e) => e.video_id && !INVISIBLE.has(e.name)).map((e) => e.video_id));
    const items: FeedItem[] = rows.map(({ created_ms: _ms, ...v }) => ({ ...v, pending: pending.has(v.id) }));
    const synced = (await getMeta(db, CURSOR_KEY)) != null;
    const end = (await getMeta<boolean>(db, FEED_END_KEY)) === true;
    return { items, synced, end };
  }, [userId]);

  const loading = useRef(false);
  const [, setTick] = useState(0);
  const loadMore = useCallback(() => {
    if (!engine || loading.current) return;
    loading.current = true;
    engine
      .loadOlder()
      .catch(() => false)
      .finally(() => {
        loading.current = false;
        setTick((n) => n + 1);
      });
  }, [engine]);

  const waitingForFirstPull = !!data && !data.synced && data.items.length === 0 && !!engine && status.online && !status.paused;
  return {
    items: data?.items ?? [],
    status: !data || waitingForFirstPull ? 'loading' : 'ready',
    hasMore: !!data && !data.end && status.online,
    loadMore,
  };
}
