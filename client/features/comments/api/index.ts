import { useCallback, useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { CommentItem } from '../../../../sync/protocol/messages';
import { getMeta } from '../../../data/db';
import { commentsLoadedKey } from '../../../data/apply-pull';
import { getClientDb } from '../../../data/session';
import { useEngineStatus, useSyncEngine } from '../../../data/hooks';

export type VideoComment = CommentItem & { pending: boolean };

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
    return engine.openComments(videoId);
  }, [engine, videoId]);
  const data = useLiveQuery(async () => {
    if (!videoId) return { comments: [], loaded: true };
    const db = getClientDb();
    const rows = await db.comments.where('[video_id+created_ms]').between([videoId, -Infinity], [videoId, Infinity]).reverse().toArray();
    const queued = userId ? await db.outbox.where('user_id').equals(userId).toArray() : [];
    const pending = new Set(queued.filter((e) => e.name === 'addComment').map((e) => (e.args as { commentId: string }).commentId));
    const comments = rows.map(({ created_ms: _ms, ...c }) => ({ ...c, pending: pending.has(c.id) }));
    const loaded = (await getMeta<number>(db, commentsLoadedKey(videoId))) !== undefined;
    return { comments, loaded };
  }, [videoId, userId]);
  const ready = !!data && (data.loaded || !status.online || !engine || status.paused !== null);
  return { comments: data?.comments ?? [], status: ready ? 'ready' : 'loading' };
}

/** Adds a comment (queued, shown at once). Blank text is ignored, as in the spec. */
export function useAddComment(): (videoId: string, content: string) => Promise<void> {
  const engine = useSyncEngine();
  return useCallback(
    async (videoId: string, content: string) => {
      if (!engine || !content.trim()) return;
      await engine.mutate('addComment', { commentId: crypto.randomUUID(), videoId, content: content.trim() });
    },
    [engine],
  );
}
