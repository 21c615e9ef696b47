import { useEffect, useState } from 'react';
import { readQueuedFile } from '#client/sync/uploads';

/** "Processing… N%" under the uploader's card while the server makes the renditions. */
export function ProcessingState({ progress }: { progress: number }) {
  const pct = Math.max(0, Math.min(100, Math.round(progress)));
  return (
    <div className="upload-state" role="status">
      <span>Processing… {pct}%</span>
      <progress max={100} value={pct} aria-label="Processing progress" />
    </div>
  );
}

export function FailedState({ error }: { error: string | null }) {
  return (
    <div className="upload-state failed" role="alert">
      <span>We couldn&apos;t process this video: {error || 'unknown error'}</span>
    </div>
  );
}

/**
 * An object URL of the uploader's own file while the video is processing, if the upload queue
 * still holds it; revoked when no longer needed, so the Blob can be freed.
 */
export function useLocalUploadUrl(videoId: string, enabled: boolean): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let made: string | null = null;
    let cancelled = false;
    readQueuedFile(videoId).then(
      (file) => {
        if (cancelled || !file) return;
        made = URL.createObjectURL(file);
        setUrl(made);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [videoId, enabled]);
  return url;
}
