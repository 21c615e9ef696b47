/** Asks the service worker to keep a played video for offline replays (see client/sw/sw.ts). */
export function keepMediaForOffline(src: string): void {
  const controller = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
  controller?.postMessage({ type: 'KEEP_MEDIA', url: new URL(src, location.href).href });
}
