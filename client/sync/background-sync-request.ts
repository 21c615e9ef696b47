/** The one-off sync the service worker answers by sending the outbox (client/sw/background-sync.ts). */
export const OUTBOX_SYNC_TAG = 'vidi-outbox';

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

let asked: Promise<void> | null = null;

/**
 * Asks the browser to wake the service worker once the network is back, even if every page of the
 * app is closed by then (Background Sync; Chromium). Called when a change is queued and when a push
 * fails offline; one registration of a tag stands for all (the browser fires it once). Elsewhere
 * (no worker, no SyncManager) it does nothing: the queue goes out on the next open, as before.
 * Never awaited on a click's path.
 */
export function requestBackgroundSync(): void {
  const sw = (globalThis as { navigator?: { serviceWorker?: ServiceWorkerContainer } }).navigator?.serviceWorker;
  if (!sw || asked) return;
  asked = sw.ready
    .then((reg) => (reg as ServiceWorkerRegistration & { sync?: SyncManagerLike }).sync?.register(OUTBOX_SYNC_TAG))
    // Refused (e.g. the permission is blocked) or no worker: the page's engine sends on the next open.
    .catch(() => undefined)
    .finally(() => {
      asked = null;
    });
}
