import { OUTBOX_SYNC_TAG } from '../sync/background-sync-request';
import { flushOutbox } from './outbox-flush';

interface SyncEventLike {
  tag: string;
  /** The browser's last attempt for this registration (Background Sync spec). */
  lastChance?: boolean;
  waitUntil(p: Promise<unknown>): void;
}
declare const self: { addEventListener(type: 'sync', listener: (event: SyncEventLike) => void): void };

/**
 * Background Sync in the service worker (docs/pwa.md, "Sync while closed"): the page registers the
 * `vidi-outbox` sync when it queues a change or a push fails offline; the browser fires it once the
 * network is back, even with no page of the app open, and the worker sends the outbox. A failed
 * flush rejects waitUntil, so the browser tries again later with its own backoff; on its last
 * chance the queue is simply left to the next open.
 */
export function listenForBackgroundSync(): void {
  self.addEventListener('sync', (event) => {
    if (event.tag !== OUTBOX_SYNC_TAG) return;
    const flushed = flushOutbox();
    event.waitUntil(event.lastChance ? flushed.catch(() => undefined) : flushed);
  });
}
