import { useCallback, useEffect, useMemo } from 'react';
import { newId } from '#client/sync/ids';
import { useLiveQuery } from 'dexie-react-hooks';
import { readComments, type CommentsSnapshot, type LocalComment } from '#client/sync/queries';
import { getClientDb } from '#client/sync/active-engine';
import { useEngineStatus, useSyncEngine } from '#client/sync/useSyncEngine';

export type VideoComment = LocalComment;

export interface VideoComments extends Omit<CommentsSnapshot, 'loaded'> {
  status: 'loading' | 'ready';
}

const none: CommentsSnapshot = { comments: [], replies: {}, loaded: true, loadedAt: null };

/**
 * A video's comments from the local database, followed live while the hook is mounted (the sync
 * engine pulls them in full on open, then only changes): top-level ones with the pinned one first,
 * and the replies the device holds under each.
 */
export function useVideoComments(videoId: string | null): VideoComments {
  const engine = useSyncEngine();
  const status = useEngineStatus();
  const userId = engine?.userId ?? null;
  useEffect(() => {
    if (!engine || !videoId) return;
    return engine.followComments(videoId);
  }, [engine, videoId]);
  const data = useLiveQuery(async () => (videoId ? readComments(getClientDb(), userId, videoId) : none), [videoId, userId]);
  const ready = !!data && (data.loaded || !status.online || !engine || status.paused !== null);
  return { comments: data?.comments ?? [], replies: data?.replies ?? {}, loadedAt: data?.loadedAt ?? null, status: ready ? 'ready' : 'loading' };
}

/** Adds a comment, or a reply when `parentId` names the comment answered (queued, shown at once). Blank text is ignored. */
export function useAddComment(): (videoId: string, content: string, parentId?: string) => Promise<void> {
  const engine = useSyncEngine();
  return useCallback(
    async (videoId: string, content: string, parentId?: string) => {
      if (!engine || !content.trim()) return;
      await engine.mutate('addComment', { commentId: newId(), videoId, content: content.trim(), ...(parentId ? { parentId } : {}) });
    },
    [engine],
  );
}

export interface CommentActions {
  setLike(commentId: string, liked: boolean): Promise<void>;
  remove(commentId: string): Promise<void>;
  setPinned(commentId: string, pinned: boolean): Promise<void>;
}

/** A comment's like, deletion and pin: queued and shown at once; a refusal by the server is announced by the sync bridge. */
export function useCommentActions(): CommentActions {
  const engine = useSyncEngine();
  return useMemo<CommentActions>(() => {
    const run = async (mutate: (e: NonNullable<typeof engine>) => Promise<unknown>) => {
      if (engine) await mutate(engine);
    };
    return {
      setLike: (commentId, liked) => run((e) => e.mutate(liked ? 'likeComment' : 'unlikeComment', { commentId })),
      remove: (commentId) => run((e) => e.mutate('deleteComment', { commentId })),
      setPinned: (commentId, pinned) => run((e) => e.mutate(pinned ? 'pinComment' : 'unpinComment', { commentId })),
    };
  }, [engine]);
}
