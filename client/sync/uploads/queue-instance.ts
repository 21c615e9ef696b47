import { toast } from 'sonner';
import { getAccessToken, refreshSession } from '#client/lib/session';
import { UPLOADED, UPLOAD_FAILED_TITLE } from './checks';
import { uploadsDb } from './upload-db';
import { UploadQueue } from './upload-queue';

/** A fresh token per tus request: the current one, or a refresh when it is about to expire. */
async function freshToken(): Promise<string | null> {
  return getAccessToken() ?? (await refreshSession().catch(() => null));
}

async function sendPoster(videoId: string, poster: Blob, token: string): Promise<boolean> {
  const res = await fetch(`/api/videos/${encodeURIComponent(videoId)}/poster`, {
    method: 'PUT',
    body: poster,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': poster.type || 'image/jpeg' },
  });
  return res.ok;
}

let queue: UploadQueue | undefined;

/** The app's one upload queue (lazy: it pulls in tus-js-client). */
export function getUploadQueue(): UploadQueue {
  if (!queue) {
    queue = new UploadQueue({
      db: uploadsDb(),
      endpoint: new URL('/files/', window.location.origin).href,
      getAccessToken: freshToken,
      sendPoster,
      events: {
        onSuccess: () => {
          toast.success(UPLOADED.title, { description: UPLOADED.description });
        },
        onFailure: (_rec, reason) => {
          toast.error(UPLOAD_FAILED_TITLE, { description: reason });
        },
      },
    });
    queue.start();
  }
  return queue;
}
