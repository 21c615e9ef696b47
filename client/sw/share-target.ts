import { putSharedVideo, sharedRecord } from '../sync/uploads/shared-video';
import { isOwnOrSystemShare } from './share-origin';
import { VIDEO_TITLE_MAX } from '#sync/protocol/limits';

interface FetchEventLike {
  request: Request;
  clientId: string;
  respondWith(r: Promise<Response>): void;
}
declare const self: {
  location: Location;
  clients: { get(id: string): Promise<unknown> };
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
};

/** The manifest's share_target action (vite.config.ts); the server answers it when no worker did. */
export const SHARE_TARGET_PATH = '/share-target';
/** Where the member lands: the layout finds the shared video and opens the upload dialog with it. */
export const SHARED_LANDING = '/home?shared=1';

/**
 * The share target's POST in the service worker (docs/pwa.md, "Share into Vidi"): the video (and
 * the shared title or text) is kept in IndexedDB (client/sync/uploads/shared-video.ts) and the app opens
 * at /home. Registered before Workbox's routes: this POST is answered here, never by the network.
 */
export function listenForShares(): void {
  self.addEventListener('fetch', (event) => {
    const { request } = event;
    if (request.method !== 'POST') return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin || url.pathname !== SHARE_TARGET_PATH) return;
    event.respondWith(receiveShare(request, event.clientId));
  });
}

async function receiveShare(request: Request, clientId: string): Promise<Response> {
  const source = { secFetchSite: request.headers.get('Sec-Fetch-Site'), origin: request.headers.get('Origin'), clientId };
  if (!(await isOwnOrSystemShare(source, self.location.origin, (id) => self.clients.get(id)))) {
    // Another site's form: the app opens as a plain visit, with nothing kept or offered.
    return Response.redirect(new URL('/home', self.location.origin).href, 303);
  }
  try {
    // Chromium keeps a large part of a form's files on disk, not in memory; the worker holds the
    // File only until IndexedDB has it (or has refused it as too large or not a video).
    const form = await request.formData();
    const video = form.getAll('video').find((v): v is File => typeof v !== 'string') ?? null;
    const title = [form.get('title'), form.get('text')].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? '';
    // A title suggestion is cut to the upload form's limit (the dialog and the server check it again).
    await putSharedVideo(sharedRecord(video, title.trim().slice(0, VIDEO_TITLE_MAX)));
  } catch {
    // An unreadable form or a full disk: the app still opens; nothing was kept to hand over.
  }
  return Response.redirect(new URL(SHARED_LANDING, self.location.origin).href, 303);
}
