import { getAccessToken, refreshSession } from '#client/lib/session';
import { HttpClient } from '#client/lib/http/http-client';
import { apiErrorFromResponse } from '#client/lib/http/api-error';
import { uploadEvents } from './upload-events';
import { uploadsDb } from './upload-db';
import { UploadQueue } from './upload-queue';

/** The queue's own token per call (its fresh one), so no session refresh happens behind it. */
const http = new HttpClient();

/** A fresh token per tus request: the current one, or a refresh when it is about to expire. */
async function freshToken(): Promise<string | null> {
  return getAccessToken() ?? (await refreshSession().catch(() => null));
}

async function sendPoster(videoId: string, poster: Blob, token: string): Promise<boolean> {
  const res = await http.send(`/api/videos/${encodeURIComponent(videoId)}/poster`, {
    method: 'PUT',
    blob: poster,
    token,
    headers: { 'content-type': poster.type || 'image/jpeg' },
  });
  return res.ok;
}

/** True when stored, and also when refused for good (4xx other than 401/404/408/429): a resend would be refused again. */
async function sendCaptions(videoId: string, captions: Blob, token: string): Promise<boolean> {
  const res = await http.send(`/api/videos/${encodeURIComponent(videoId)}/captions`, {
    method: 'PUT',
    blob: captions,
    token,
    headers: { 'content-type': 'text/vtt' },
  });
  if (res.ok) return true;
  if (res.status >= 500 || [401, 404, 408, 429].includes(res.status)) return false;
  uploadEvents.onCaptionsRefused(videoId, (await apiErrorFromResponse(res, '')).message);
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
      events: uploadEvents,
    });
    queue.start();
  }
  return queue;
}
