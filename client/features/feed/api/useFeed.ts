import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTransitionStore } from '#client/lib/useTransitionStore';
import type { FeedCard } from '../components/types';
import type { LocalFeedItem } from '#client/sync/queries';
import { createFeedWatch } from '#client/sync/feed-watch';
import { reuseUnchanged } from '#client/sync/stable-rows';
import { getClientDb } from '#client/sync/active-engine';
import { useEngineStatusField, useSyncEngine } from '#client/sync/useSyncEngine';
import { forgetProcessedUploads, usePendingUploads, type QueuedUploadItem } from '#client/sync/uploads';
import { afterFirstScreen } from '#client/lib/after-first-screen';

function uploadItem(u: QueuedUploadItem): FeedCard {
  return {
    id: u.id,
    user_id: u.user_id,
    user_name: u.user_name,
    // An upload's card links no name (client/features/feed/components/VideoCard.tsx).
    user_handle: '',
    title: u.title,
    description: u.description,
    video_url: null,
    poster_url: u.poster_url,
    created_at: new Date(u.created_at).toISOString(),
    duration_ms: 0,
    // Not on the server yet: nothing to play but what the upload state shows.
    media_status: 'processing',
    media_progress: 0,
    media_error: null,
    hls_url: null,
    mp4_url: null,
    captions_url: null,
    likes_count: 0,
    comments_count: 0,
    shares_count: 0,
    views_count: 0,
    liked_by_me: false,
    pending: true,
    upload: { progress: u.progress, status: u.status, error: u.error },
  };
}

export interface FeedState {
  items: FeedCard[];
  status: 'loading' | 'ready';
  /** Videos could not be fetched although the network is up (the sync engine keeps retrying). */
  error: boolean;
  hasMore: boolean;
  loadMore(): void;
}

/**
 * The feed from the local database, newest first, with optimistic changes applied, and the user's
 * queued uploads on top (until the finished video arrives by pull). Older pages come from
 * GET /api/videos while online (loadMore).
 */
export function useFeed(): FeedState {
  const engine = useSyncEngine();
  // Field by field: the feed does not re-render for `syncing`, which flips twice per sync round.
  const status = { online: useEngineStatusField('online'), failing: useEngineStatusField('failing'), paused: useEngineStatusField('paused') };
  const userId = engine?.userId ?? null;
  const uploads = usePendingUploads(userId);
  // Not a live query: it would re-read every cached video after each like; the watch reads only
  // the rows a change names. Rendered in a transition: the first cards, and each page of the
  // window after them, do not hold the main thread in one task.
  const watch = useMemo(() => createFeedWatch(getClientDb(), userId), [userId]);
  const data = useTransitionStore(watch.subscribe, watch.get);

  const loading = useRef(false);
  const [, setTick] = useState(0);
  const [olderFailed, setOlderFailed] = useState(false);
  const loadMore = useCallback(() => {
    if (!engine || loading.current) return;
    loading.current = true;
    engine
      .pullOlder()
      .then(
        () => setOlderFailed(false),
        () => setOlderFailed(true),
      )
      .finally(() => {
        loading.current = false;
        setTick((n) => n + 1);
      });
  }, [engine]);

  // Unchanged cards keep their objects, so a like re-renders one memoized card, not every card.
  const stable = useRef<LocalFeedItem[]>([]);
  const rows = useMemo(() => (stable.current = reuseUnchanged(stable.current, data?.items ?? [])), [data]);
  // An uploaded file is kept to play while the server processes it; once the feed shows the video
  // ready (or failed) the copy goes. When idle, for the latest rows only: the window's pages change
  // them a dozen times in the first seconds.
  useEffect(() => {
    if (!userId) return;
    return afterFirstScreen(() => void forgetProcessedUploads(rows).catch(() => undefined));
  }, [rows, userId]);
  const items = useMemo(() => {
    if (!uploads.length) return rows;
    const known = new Set(rows.map((r) => r.id));
    return [...uploads.filter((u) => !known.has(u.id)).map(uploadItem), ...rows];
  }, [rows, uploads]);

  const error = status.online && (status.failing || olderFailed);
  const waitingForFirstPull = !!data && !data.synced && data.items.length === 0 && !!engine && status.online && !status.paused && !error;
  return {
    items,
    status: !data || waitingForFirstPull ? 'loading' : 'ready',
    error,
    hasMore: !!data && !data.end && status.online,
    loadMore,
  };
}
