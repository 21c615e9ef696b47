import { getMediaPreferences } from './media-preferences';
import { networkInformation } from './connection';
import { requestPersistentStorage } from './session/persist-storage';
import { HttpClient } from './http/http-client';

// Offline copies of videos (docs/pwa.md, "Service worker"). Only the small progressive MP4 of a video
// (mp4_url, 360p, fast start) is ever kept: the original upload can be 120 MiB and HLS segments are
// many small files tied to one rendition. The page writes the copy into Cache Storage itself (it gets
// the error and the moment the copy is complete, which a message to the worker would not return);
// the service worker answers the player's Range requests from that cache (client/sw/sw.ts).

// No timeout: a copy on a slow connection takes as long as it takes, and its body streams into the cache.
const http = new HttpClient({ timeoutMs: null });

/** The cache the service worker reads videos from; the same name there. */
export const MEDIA_CACHE = 'vidi-media';
/** Saved copies kept at most (about 10 MB each); the oldest go first. */
export const MAX_SAVED_VIDEOS = 50;
/** How many of the newest ready videos downloadAhead keeps. */
export const DOWNLOAD_AHEAD_COUNT = 5;
/** Marks a copy stored here, so the worker can drop the originals older versions kept (sw.ts). */
export const OFFLINE_COPY_HEADER = 'X-Vidi-Offline-Copy';

/** HLS playlists, fragments and init segments: streamed, never stored (the same rule as sw.ts). */
export function isStreamingMedia(url: string): boolean {
  const path = new URL(url, base()).pathname;
  return /\.(m3u8|m4s)$/i.test(path) || /\/init\.mp4$/i.test(path);
}

function base(): string {
  return typeof location === 'undefined' ? 'http://localhost/' : location.href;
}

function absolute(url: string): string {
  return new URL(url, base()).href;
}

function hasCacheStorage(): boolean {
  return typeof caches !== 'undefined';
}

async function openMediaCache(): Promise<Cache> {
  if (!hasCacheStorage()) throw new Error('This browser cannot keep videos for offline viewing.');
  return caches.open(MEDIA_CACHE);
}

// The profile's storage figures follow saves and clears made anywhere in this page.
const changeListeners = new Set<() => void>();

/** Calls `listener` after a video was saved or the saved videos were cleared. Returns the unsubscribe. */
export function onOfflineVideosChanged(listener: () => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

function changed(): void {
  for (const l of changeListeners) l();
}

const inFlight = new Map<string, Promise<void>>();
// Bumped by clearOfflineVideos: a download that was under way when the member cleared is not stored.
let generation = 0;

/**
 * Stores the video's small MP4 for offline viewing, once per URL (a second call while the first runs
 * shares it; a stored copy is not downloaded again). Rejects with an Error whose message a member
 * may be shown.
 */
export function saveForOffline(mp4Url: string): Promise<void> {
  // The member keeps something for later: the moment to ask that the browser not evict it.
  requestPersistentStorage();
  return keep(mp4Url);
}

function keep(mp4Url: string): Promise<void> {
  const url = absolute(mp4Url);
  let pending = inFlight.get(url);
  if (!pending) {
    pending = store(url).finally(() => inFlight.delete(url));
    inFlight.set(url, pending);
  }
  return pending;
}

async function store(url: string): Promise<void> {
  if (isStreamingMedia(url)) throw new Error('Only the downloadable copy of a video can be saved for offline viewing.');
  const cache = await openMediaCache();
  if (await cache.match(url)) return;
  const started = generation;
  let res: Response;
  try {
    // Low priority: a copy for later must not slow down the video being watched now.
    res = await http.send(url, { method: 'GET', headers: { accept: '*/*' }, priority: 'low' });
  } catch {
    throw new Error('Could not download the video. Check your connection and try again.');
  }
  // Only a complete answer: a 206 would be one slice of the video.
  if (res.status !== 200) throw new Error('This video cannot be saved for offline viewing right now.');
  if (started !== generation) return;
  try {
    const headers = new Headers(res.headers);
    headers.set(OFFLINE_COPY_HEADER, '1');
    await cache.put(url, new Response(res.body, { status: 200, statusText: res.statusText, headers }));
  } catch (e) {
    if (e instanceof DOMException && e.name === 'QuotaExceededError') {
      throw new Error('There is not enough space on this device to save this video.');
    }
    throw new Error('Could not save the video on this device.');
  }
  await trim(cache);
  changed();
}

// Cache keys come back in the order they were stored, so the first ones are the oldest copies.
async function trim(cache: Cache): Promise<void> {
  const keys = await cache.keys();
  const excess = keys.slice(0, Math.max(0, keys.length - MAX_SAVED_VIDEOS));
  await Promise.all(excess.map((k) => cache.delete(k)));
}

export async function isSavedForOffline(mp4Url: string): Promise<boolean> {
  if (!hasCacheStorage()) return false;
  const cache = await caches.open(MEDIA_CACHE);
  return (await cache.match(absolute(mp4Url))) !== undefined;
}

/** The item's small MP4 when a copy is stored (the service worker serves it offline), else null. */
export async function offlineUrlFor(item: { mp4_url: string | null }): Promise<string | null> {
  if (!item.mp4_url) return null;
  return (await isSavedForOffline(item.mp4_url)) ? item.mp4_url : null;
}

export interface StorageUsage {
  /** Everything this site stores on the device (app, local database, saved videos). */
  usedBytes: number;
  quotaBytes: number;
  savedVideos: number;
  /** Whether the browser promised not to evict this site's data under storage pressure. */
  persistent: boolean;
}

export async function storageUsage(): Promise<StorageUsage> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  const [estimate, persistent, savedVideos] = await Promise.all([
    storage?.estimate ? storage.estimate().catch(() => ({}) as StorageEstimate) : ({} as StorageEstimate),
    storage?.persisted ? storage.persisted().catch(() => false) : false,
    hasCacheStorage() ? caches.open(MEDIA_CACHE).then(async (c) => (await c.keys()).length) : 0,
  ]);
  return { usedBytes: estimate.usage ?? 0, quotaBytes: estimate.quota ?? 0, savedVideos, persistent };
}

export async function clearOfflineVideos(): Promise<void> {
  generation += 1;
  if (hasCacheStorage()) await caches.delete(MEDIA_CACHE);
  changed();
}

/**
 * Keeps a watched video's small MP4 for offline replays, in the background (call it when playback
 * starts; failures are silent, the member did not ask for it). Pass the item's mp4_url, never its
 * video_url (the original) or hls_url; null or undefined does nothing.
 */
export function keepMediaForOffline(mp4Url: string | null | undefined): void {
  if (!mp4Url || !hasCacheStorage() || isStreamingMedia(mp4Url)) return;
  keep(mp4Url).catch(() => undefined);
}

/**
 * Whether a download now would not cost the member mobile data: online, no Save-Data, not cellular,
 * and 4G-class or unknown. Browsers without navigator.connection (Firefox, Safari) count as unmetered.
 */
export function isUnmeteredConnection(): boolean {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return false;
  const c = networkInformation();
  if (!c) return true;
  if (c.saveData === true || c.type === 'cellular' || c.type === 'none') return false;
  return c.effectiveType === undefined || c.effectiveType === '4g';
}

export interface DownloadAheadItem {
  mp4_url: string | null;
  media_status: 'processing' | 'ready' | 'failed';
  created_at: string;
}

let ahead: Promise<number> | null = null;

/**
 * With "Download new videos for offline" on and an unmetered connection, stores the small MP4 of the
 * newest DOWNLOAD_AHEAD_COUNT ready items not saved yet, one at a time. Resolves with how many it
 * stored; never rejects. One run at a time: a call during a run gets that run.
 */
export function downloadAhead(items: readonly DownloadAheadItem[]): Promise<number> {
  if (ahead) return ahead;
  if (!getMediaPreferences().downloadAhead || !isUnmeteredConnection() || !hasCacheStorage()) return Promise.resolve(0);
  ahead = runDownloadAhead(items).finally(() => {
    ahead = null;
  });
  return ahead;
}

function newestReady(items: readonly DownloadAheadItem[]): string[] {
  return items
    .filter((i) => i.media_status === 'ready' && !!i.mp4_url)
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))
    .slice(0, DOWNLOAD_AHEAD_COUNT)
    .map((i) => i.mp4_url as string);
}

async function runDownloadAhead(items: readonly DownloadAheadItem[]): Promise<number> {
  let stored = 0;
  for (const url of newestReady(items)) {
    // Checked before each download: the member may switch it off or leave Wi-Fi mid-way.
    if (!getMediaPreferences().downloadAhead || !isUnmeteredConnection()) break;
    if (await isSavedForOffline(url)) continue;
    try {
      await saveForOffline(url);
      stored += 1;
    } catch {
      // Offline or out of space: the next ones would fail the same way.
      break;
    }
  }
  return stored;
}
