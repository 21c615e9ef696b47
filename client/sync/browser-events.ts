import type { StatusStore } from './status';

export interface BrowserEventHandlers {
  status: StatusStore;
  /** The network is back, or the member came back to this tab: reconnect and send now. */
  wake: () => void;
}

/** Listens to the window's online, offline and visibility events; returns the function that stops listening. */
export function listenToBrowser({ status, wake }: BrowserEventHandlers): () => void {
  const w = (globalThis as { window?: Window }).window;
  if (!w) return () => undefined;
  const onOnline = () => {
    status.set({ online: true });
    wake();
  };
  const onOffline = () => status.set({ online: false });
  const onVisible = () => {
    // A tab the member comes back to takes a live stream again, even one a newer tab replaced.
    if (document.visibilityState === 'visible') wake();
  };
  w.addEventListener('online', onOnline);
  w.addEventListener('offline', onOffline);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    w.removeEventListener('online', onOnline);
    w.removeEventListener('offline', onOffline);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
