import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { FeedItem as ServerFeedItem } from '#sync/protocol/messages';
import type { LocalFeedItem } from '#client/sync/queries';
import { createFeedWatch } from '#client/sync/feed-watch';
import { reuseUnchanged } from '#client/sync/stable-rows';
import { getClientDb } from '#client/sync/active-engine';
import { useEngineStatusField, useSyncEngine } from '#client/sync/hooks';
import { usePendingUploads, type PendingFeedItem, type UploadStatus } from '#client/sync/uploads';

/**
 * A feed card's data: the API item plus whether queued changes of this user touch it. A queued
 * upload (from the upload feature) has no video_url yet and carries its progress in `upload`.
 */
export interface FeedItem extends Omit<ServerFeedItem, 'video_url'> {
  video_url: string | null;
  pending: boolean;
  upload?: { progress: number; status: UploadStatus; error: string | null };
}

function uploadItem(u: PendingFeedItem): FeedItem {
  return {
    id: u.id,
    user_id: u.user_id,
    user_name: u.user_name,
    title: u.title,
    description: u.description,
    video_url: null,
    poster_url: u.poster_url,
    created_at: new Date(u.created_at).toISOString(),
    duration_ms: 0,
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
  items: FeedItem[];
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
  // the rows a change names.
  const watch = useMemo(() => createFeedWatch(getClientDb(), userId), [userId]);
  const data = useSyncExternalStore(watch.subscribe, watch.get, watch.get);

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
