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

/** True when stored, and also when refused for good (4xx other than 401/404/408/429): a resend would be refused again. */
async function sendCaptions(videoId: string, captions: Blob, token: string): Promise<boolean> {
  const res = await fetch(`/api/videos/${encodeURIComponent(videoId)}/captions`, {
    method: 'PUT',
    body: captions,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/vtt' },
  });
  if (res.ok) return true;
  if (res.status >= 500 || [401, 404, 408, 429].includes(res.status)) return false;
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  toast.error('Captions not saved', { description: body?.error?.message ?? 'The captions file was refused.' });
  return true;
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
      sendCaptions,
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
