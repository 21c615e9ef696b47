import type { FeedItem } from '#sync/protocol/messages';

/**
 * Where a card's picture comes from. The original upload (`video_url`) is only the last resort for
 * videos made before media processing: it can be huge and in a codec the browser cannot decode.
 */
export type PlaybackSource =
  | { kind: 'native-hls'; url: string }
  | { kind: 'hls.js'; url: string }
  | { kind: 'mp4'; url: string }
  | { kind: 'offline'; url: string }
  | { kind: 'local'; url: string }
  | { kind: 'original'; url: string };

export interface PlayerEnv {
  /** HLS goes to the browser's own player (Safari, iOS: see prefersNativeHls). */
  nativeHls: boolean;
  /** Media Source Extensions (hls.js) are there. */
  mse: boolean;
  online: boolean;
  /** The copy saved for offline (offlineUrlFor), when there is one. */
  offlineUrl: string | null;
  dataSaver: boolean;
  /** The uploader's own file from the upload queue while the server is still processing it. */
  localUrl?: string | null;
}

export type SourceItem = Pick<FeedItem, 'hls_url' | 'mp4_url' | 'media_status'> & { video_url: string | null };

export function chooseSource(item: SourceItem, env: PlayerEnv): PlaybackSource | null {
  if (item.media_status === 'processing') return env.localUrl ? { kind: 'local', url: env.localUrl } : null;
  if (item.media_status === 'failed') return null;
  // Offline, the network sources would only stall: the saved small MP4 plays at once.
  if (!env.online && env.offlineUrl) return { kind: 'offline', url: env.offlineUrl };
  if (item.hls_url) {
    // Native HLS cannot be capped at 360p, so data saver takes the small MP4 there.
    if (env.nativeHls) return env.dataSaver && item.mp4_url ? { kind: 'mp4', url: item.mp4_url } : { kind: 'native-hls', url: item.hls_url };
    if (env.mse) return { kind: 'hls.js', url: item.hls_url };
  }
  if (item.mp4_url) return { kind: 'mp4', url: item.mp4_url };
  if (env.offlineUrl) return { kind: 'offline', url: env.offlineUrl };
  return item.video_url ? { kind: 'original', url: item.video_url } : null;
}

/**
 * Whether to hand HLS to the browser's own player. Apple's browsers play it best natively (and
 * iPhones before iOS 17.1 have no MSE at all). Recent Chromium also answers canPlayType for HLS,
 * but its native player can neither be capped at 360p nor stopped after one preloaded segment, so
 * where MSE exists outside Apple's browsers hls.js plays.
 */
export function prefersNativeHls(canPlayHls: boolean, mse: boolean, vendor: string): boolean {
  return canPlayHls && (!mse || vendor.startsWith('Apple'));
}

/** What this browser can do, asked once per page (the answers do not change). */
let capabilities: { nativeHls: boolean; mse: boolean } | undefined;
export function browserCapabilities(): { nativeHls: boolean; mse: boolean } {
  if (capabilities) return capabilities;
  if (typeof document === 'undefined') return { nativeHls: false, mse: false };
  const w = window as Window & { ManagedMediaSource?: unknown };
  const mse = typeof window.MediaSource !== 'undefined' || typeof w.ManagedMediaSource !== 'undefined';
  const canPlayHls = document.createElement('video').canPlayType('application/vnd.apple.mpegurl') !== '';
  capabilities = { nativeHls: prefersNativeHls(canPlayHls, mse, navigator.vendor ?? ''), mse };
  return capabilities;
}
