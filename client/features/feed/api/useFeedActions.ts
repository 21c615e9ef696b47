import { useCallback, useEffect, useMemo, useRef } from 'react';
import { toast } from '#client/ui/toast';
import type { ShareOutcome } from '#client/lib/share-link';
import { afterFirstScreen } from '#client/lib/after-first-screen';
import { newId } from '#client/sync/ids';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import { removeUpload, retryUpload } from '#client/sync/uploads';
import type { ReportTarget } from '#client/ui/safety/ReportDialog';
import type { MutationArgs, MutationName } from '#sync/mutations/catalogue';
import { QUALIFYING_WATCH_MS } from '#sync/protocol/limits';
import type { FeedActions, FeedCard } from '../components/types';

// The share code is fetched once the feed's first cards are drawn (the effect below), so by the first tap it
// is in and the share sheet still opens within the tap's user activation.
const loadShareLink = () => import('#client/lib/share-link');

const DELETE_CONFIRM = 'Are you sure you want to delete this video? This action cannot be undone.';

type Mutate = <N extends MutationName>(name: N, args: MutationArgs<N>) => Promise<unknown>;

/** Records a share once the link went out; a second tap while the share sheet is still open records nothing. */
function useShare(mutate: Mutate): (video: FeedCard) => Promise<void> {
  const sharing = useRef(new Set<string>());
  useEffect(() => afterFirstScreen(() => void loadShareLink().catch(() => undefined)), []);
  return useCallback(
    async (video: FeedCard) => {
      if (sharing.current.has(video.id)) return;
      sharing.current.add(video.id);
      const outcome = await loadShareLink()
        .then(({ shareOrCopy }) => shareOrCopy(video))
        .catch((): ShareOutcome => 'failed')
        .finally(() => sharing.current.delete(video.id));
      if (outcome === 'shared' || outcome === 'copied') {
        void mutate('recordShare', { shareId: newId(), videoId: video.id }).catch((e: unknown) => console.warn('share not recorded', e));
      }
      if (outcome === 'copied') toast.success('Link Copied!', { description: 'Video link copied to clipboard.' });
      if (outcome === 'failed') toast.error('Share failed', { description: 'The link could not be copied.' });
    },
    [mutate],
  );
}

/**
 * What a feed card does (docs/pwa.md, "Feed"): likes, views, shares and deletions are mutations,
 * queued and shown at once; `openComments` and `openReport` are the screen's. Signed out, the mutations do nothing.
 */
export function useFeedActions(openComments: (video: FeedCard) => void, openReport: (target: ReportTarget) => void): FeedActions {
  const engine = useSyncEngine();
  const mutate = useMemo<Mutate>(() => (engine ? (name, args) => engine.mutate(name, args) : async () => undefined), [engine]);
  const share = useShare(mutate);
  // The longest watch already reported per video: repeated reports are sent only while they can still count.
  const reported = useRef(new Map<string, number>());
  return useMemo<FeedActions>(
    () => ({
      // Idempotent: liking a liked video queues a mutation that changes nothing (on the device and on
      // the server), so a double tap the screen had not yet redrawn between cannot flip the like back.
      // Errors are only logged (the product's copy has no toast for them); a refusal by the server is announced by the sync bridge.
      setLike: (videoId, liked) => void mutate(liked ? 'like' : 'unlike', { videoId }).catch((e: unknown) => console.warn('like failed', e)),
      recordView: (videoId, watchedMs) => {
        const ms = Math.max(0, Math.floor(watchedMs));
        const before = reported.current.get(videoId) ?? -1;
        void (async () => {
          // A view counts at QUALIFYING_WATCH_MS or the end of a shorter video (the server has the final say).
          const v = await engine?.db.videos.get(videoId);
          const needed = Math.min(QUALIFYING_WATCH_MS, v?.duration_ms ?? QUALIFYING_WATCH_MS);
          if (ms <= before || before >= needed) return;
          reported.current.set(videoId, ms);
          await mutate('recordView', { videoId, watchedMs: ms });
        })().catch(() => undefined);
      },
      openComments,
      report: engine ? (video) => openReport({ type: 'video', id: video.id, userId: video.user_id, handle: video.user_handle }) : null,
      share: (video) => void share(video),
      remove: (video) => {
        if (!window.confirm(DELETE_CONFIRM)) return;
        mutate('deleteVideo', { videoId: video.id }).then(
          () => toast.success('Video Deleted'),
          (e: unknown) => toast.error('Delete Failed', { description: e instanceof Error ? e.message : 'Something went wrong' }),
        );
      },
      retryUpload: (videoId) => void retryUpload(videoId).catch((e: unknown) => console.warn('retry failed', e)),
      removeUpload: (videoId) => void removeUpload(videoId).catch((e: unknown) => console.warn('remove failed', e)),
    }),
    [engine, mutate, share, openComments, openReport],
  );
}
