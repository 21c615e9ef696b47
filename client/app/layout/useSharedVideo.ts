import { useCallback, useEffect, useState } from 'react';
import { takeSharedVideo } from '#client/sync/uploads/shared-video';
import { toastProblem } from '#client/features/upload/upload-copy';

/**
 * A video shared into Vidi from another app (docs/pwa.md, "Share into Vidi"): the service worker
 * kept it; this takes it out once a member is signed in. `file` is what the upload dialog opens
 * with (`initialFile`); `consume()` once it is handed over. A refused share (not a video, too
 * large) shows the same toast the dialog would and opens nothing.
 */
export function useSharedVideo(userId: string | null): { file: File | null; title: string; consume: () => void } {
  const [shared, setShared] = useState<{ file: File; title: string } | null>(null);
  useEffect(() => {
    if (!userId || typeof indexedDB === 'undefined') return;
    takeSharedVideo()
      .then((shared) => {
        if (!shared) return;
        if (shared.problem) toastProblem(shared.problem);
        // Set even if the effect was cleaned up meanwhile (StrictMode's second run keeps this state):
        // the record is out of the store, so this state is the only place the video still is.
        else if (shared.file) setShared({ file: shared.file, title: shared.title });
      })
      // No IndexedDB (private mode in some browsers): there is nothing to hand over.
      .catch(() => undefined);
  }, [userId]);
  const consume = useCallback(() => setShared(null), []);
  return { file: shared?.file ?? null, title: shared?.title ?? '', consume };
}
