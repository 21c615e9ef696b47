import { useMemo, useRef } from 'react';
import { newId } from '#client/sync/ids';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import { setLike } from './set-like';

export interface FeedActions {
  /** Likes (liked: true) or unlikes; idempotent, queued and shown at once. */
  setLike(like: { videoId: string; liked: boolean }): Promise<void>;
  /** Records a share (the share sheet or copied link is the screen's job). */
  shareVideo(videoId: string): Promise<void>;
  deleteVideo(videoId: string): Promise<void>;
  /** Reports watch time; repeated reports of one video are sent only while they can still count. */
  recordView(videoId: string, watchedMs: number): Promise<void>;
}

/** A view counts at 3 s or the end of a shorter video (the server has the final say). */
const QUALIFYING_MS = 3000;

export function useFeedActions(): FeedActions {
  const engine = useSyncEngine();
  const reported = useRef(new Map<string, number>());
  return useMemo<FeedActions>(() => {
    if (!engine) {
      const signedOut = async () => undefined;
      return { setLike: signedOut, shareVideo: signedOut, deleteVideo: signedOut, recordView: signedOut };
    }
    const { db } = engine;
    return {
      async setLike(like) {
        await setLike(engine, like);
      },
      async shareVideo(videoId) {
        await engine.mutate('recordShare', { shareId: newId(), videoId });
      },
      async deleteVideo(videoId) {
        await engine.mutate('deleteVideo', { videoId });
      },
      async recordView(videoId, watchedMs) {
        const ms = Math.max(0, Math.floor(watchedMs));
        const before = reported.current.get(videoId) ?? -1;
        const v = await db.videos.get(videoId);
        const needed = Math.min(QUALIFYING_MS, v?.duration_ms ?? QUALIFYING_MS);
        if (ms <= before || before >= needed) return;
        reported.current.set(videoId, ms);
        await engine.mutate('recordView', { videoId, watchedMs: ms });
      },
    };
  }, [engine]);
}
