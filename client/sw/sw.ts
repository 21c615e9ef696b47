import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { RangeRequestsPlugin } from 'workbox-range-requests';

// The service worker (vite-plugin-pwa injectManifest). Typed loosely: the project's DOM lib and the
// WebWorker lib cannot share one TypeScript program.
interface SwScope {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
  location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}
declare const self: SwScope;
interface RouteArgs {
  url: URL;
  request: Request;
  event: { waitUntil(p: Promise<unknown>): void };
}

export const MEDIA_CACHE = 'vidi-media';
export const POSTER_CACHE = 'vidi-posters';
/** Watched videos kept for offline replay (each up to 120 MiB; the quota purge guards the rest). */
const MEDIA_MAX_ENTRIES = 30;
const POSTER_MAX_ENTRIES = 300;

// The app shell: hashed assets, index.html, icons, manifest.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Deep links (/home, /rewards, ...) open offline from the precached shell; API, uploads and media never do.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/files/, /^\/media\//] }));

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

// Videos: a cached full copy answers Range requests (206) itself; only complete 200 answers are stored.
const videoCache = new CacheFirst({
  cacheName: MEDIA_CACHE,
  plugins: [
    plugin(new CacheableResponsePlugin({ statuses: [200] })),
    plugin(new RangeRequestsPlugin()),
    plugin(new ExpirationPlugin({ maxEntries: MEDIA_MAX_ENTRIES, purgeOnQuotaError: true })),
  ],
});
const copying = new Set<string>();

registerRoute(
  ({ url, request }: RouteArgs) => isMedia(url) && request.destination !== 'image',
  async ({ request, event }: RouteArgs) => {
    const cache = await caches.open(MEDIA_CACHE);
    if (await cache.match(request.url)) return videoCache.handle({ event: event as never, request });
    // Not kept yet: straight from the network (the player's own Range request). Only videos the member
    // plays are kept (the page says so), not every one the feed preloads.
    return fetch(request);
  },
);

/** Stores a full copy of a played video for offline replays (once per URL at a time). */
function keepForOffline(url: string, event: { waitUntil(p: Promise<unknown>): void }): void {
  const u = new URL(url, self.location.href);
  if (!isMedia(u) || copying.has(u.href)) return;
  copying.add(u.href);
  event.waitUntil(
    caches
      .open(MEDIA_CACHE)
      .then(async (cache) => {
        if (await cache.match(u.href)) return;
        await videoCache.handle({ event: event as never, request: new Request(u.href, { credentials: 'same-origin' }) });
      })
      .catch(() => undefined)
      .finally(() => copying.delete(u.href)),
  );
}

// Messages from the page: 'Reload' on the update prompt, and a video that started playing.
self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; url?: unknown } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (data?.type === 'KEEP_MEDIA' && typeof data.url === 'string') keepForOffline(data.url, event as unknown as RouteArgs['event']);
});
clientsClaim();
