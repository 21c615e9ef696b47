import { useCallback, useEffect } from 'react';
import { newId } from '#client/sync/ids';
import { useLiveQuery } from 'dexie-react-hooks';
import { readComments, type LocalComment } from '#client/sync/queries';
import { getClientDb } from '#client/sync/active-engine';
import { useEngineStatus, useSyncEngine } from '#client/sync/useSyncEngine';

export type VideoComment = LocalComment;

export interface VideoComments {
  /** Newest first. */
  comments: VideoComment[];
  status: 'loading' | 'ready';
}

/**
 * A video's comments from the local database, followed live while the hook is mounted (the sync
 * engine pulls them in full on open, then only changes).
 */
export function useVideoComments(videoId: string | null): VideoComments {
  const engine = useSyncEngine();
  const status = useEngineStatus();
  const userId = engine?.userId ?? null;
  useEffect(() => {
    if (!engine || !videoId) return;
    return engine.followComments(videoId);
  }, [engine, videoId]);
  const data = useLiveQuery(async () => (videoId ? readComments(getClientDb(), userId, videoId) : { comments: [], loaded: true }), [videoId, userId]);
  const ready = !!data && (data.loaded || !status.online || !engine || status.paused !== null);
  return { comments: data?.comments ?? [], status: ready ? 'ready' : 'loading' };
}

/** Adds a comment (queued, shown at once). Blank text is ignored, as in the product's copy. */
export function useAddComment(): (videoId: string, content: string) => Promise<void> {
  const engine = useSyncEngine();
  return useCallback(
    async (videoId: string, content: string) => {
      if (!engine || !content.trim()) return;
      await engine.mutate('addComment', { commentId: newId(), videoId, content: content.trim() });
    },
    [engine],
  );
}
