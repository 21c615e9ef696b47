import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { createPartialResponse } from 'workbox-range-requests';
import { listenForPush } from './push-events';
import { listenForBackgroundSync } from './background-sync';
import { listenForShares } from './share-target';
import { PEOPLE_CACHE } from '../lib/people-cache';

// The service worker (vite-plugin-pwa injectManifest). Typed loosely: the project's DOM lib and the
// WebWorker lib cannot share one TypeScript program.
interface SwScope {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
  location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'activate', listener: (event: { waitUntil(p: Promise<unknown>): void }) => void): void;
}
declare const self: SwScope;
interface RouteArgs {
  url: URL;
  request: Request;
}

export const MEDIA_CACHE = 'vidi-media';
export const POSTER_CACHE = 'vidi-posters';
/** Set by offline-media.ts on every copy it stores; entries without it are originals an older worker kept. */
const OFFLINE_COPY_HEADER = 'X-Vidi-Offline-Copy';
const POSTER_MAX_ENTRIES = 300;

// The installed app's abilities (docs/pwa.md): a video shared into Vidi (registered before the
// routes: the share target is a POST the app must answer, not the network), notifications, and the
// outbox sent while no page is open.
listenForShares();
listenForPush();
listenForBackgroundSync();

// The app: hashed assets, the prerendered public pages (/login answers from login.html: Workbox's
// cleanURLs), the shell, icons, manifest.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Deep links (/home, /rewards, ...) open offline from the precached shell (empty, rendered by the
// client; index.html is the prerendered landing page); API, uploads and media never do.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/shell.html'), { denylist: [/^\/api\//, /^\/files/, /^\/media\//] }));

// Workbox's plugin classes predate exactOptionalPropertyTypes; they are WorkboxPlugins at runtime.
const plugin = (p: object) => p as WorkboxPlugin;

const isMedia = (url: URL) => url.origin === self.location.origin && url.pathname.startsWith('/media/');

registerRoute(
  ({ url, request }: RouteArgs) => isMedia(url) && request.destination === 'image',
  new CacheFirst({
    cacheName: POSTER_CACHE,
    plugins: [
      plugin(new CacheableResponsePlugin({ statuses: [200] })),
      plugin(new ExpirationPlugin({ maxEntries: POSTER_MAX_ENTRIES, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true })),
    ],
  }),
);

// People pages, their lists and the Following feed (docs/pwa.md, "People"): the network when it
// answers, else the copy of the last visit, so pages seen once read offline. The member's own
// follows are not read from here (the page reads them from IndexedDB), so a stale copy never
// shows a follow undone. Kept per address: an offline page has no token, and the server may vary
// its answer on it, hence ignoreVary. The page empties this cache at sign-out.
const PEOPLE_READ_MAX_ENTRIES = 200;
// Hashtag pages (docs/pwa.md, "Discovery") are kept the same way, in the same cache: read-only
// pages, and what a member saw there is theirs (blocks and mutes applied), emptied with the rest.
const isPeopleRead = (url: URL) =>
  url.origin === self.location.origin &&
  (url.pathname.startsWith('/api/people/') || url.pathname === '/api/feed/following' || url.pathname.startsWith('/api/hashtags/'));
registerRoute(
  ({ url, request }: RouteArgs) => request.method === 'GET' && isPeopleRead(url),
  new NetworkFirst({
    cacheName: PEOPLE_CACHE,
    networkTimeoutSeconds: 6,
    matchOptions: { ignoreVary: true },
    plugins: [
      plugin(new CacheableResponsePlugin({ statuses: [200] })),
      plugin(new ExpirationPlugin({ maxEntries: PEOPLE_READ_MAX_ENTRIES, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true })),
    ],
  }),
);

// Videos (docs/pwa.md, "Service worker"): the page stores the small MP4 of a video it keeps for
// offline (client/lib/offline-media.ts, same cache name); the worker only reads that cache. It stores
// nothing itself, so neither the original upload nor the feed's preloads cost a second download.

/** HLS playlists, fragments and init segments: the same rule as isStreamingMedia in offline-media.ts. */
const isStreaming = (url: URL) => /\.(m3u8|m4s)$/i.test(url.pathname) || /\/init\.mp4$/i.test(url.pathname);

// Streamed segments go straight to the network, before any cache lookup: a player asks for one every
// few seconds and none is ever stored.
registerRoute(({ url, request }: RouteArgs) => isMedia(url) && request.destination !== 'image' && isStreaming(url), new NetworkOnly());

registerRoute(
  ({ url, request }: RouteArgs) => isMedia(url) && request.destination !== 'image',
  async ({ request }: RouteArgs) => {
    const cached = await (await caches.open(MEDIA_CACHE)).match(request.url);
    if (!cached) return fetch(request);
    // The player asks for byte ranges; a stored copy answers them (206) with no network at all.
    if (request.headers.has('range')) return createPartialResponse(request, cached);
    return cached;
  },
);

// Workers before this one kept full originals (up to 120 MiB each) in the same cache: drop them once.
async function dropKeptOriginals(): Promise<void> {
  const cache = await caches.open(MEDIA_CACHE);
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    if (!response?.headers.has(OFFLINE_COPY_HEADER)) await cache.delete(request);
  }
}
self.addEventListener('activate', (event) => event.waitUntil(dropKeptOriginals().catch(() => undefined)));

// Messages from the page: 'Reload' on the update prompt. (Pages from before offline copies moved to
// the page post KEEP_MEDIA with the original's URL; it is ignored on purpose.)
self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
