import { registerSW } from 'virtual:pwa-register';
import { toast } from 'sonner';

/**
 * Registers the service worker. A new version waits until the member agrees to reload, so a page never
 * mixes old and new assets (no stale-asset blank screens).
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh() {
      toast('A new version of Vidi is available.', {
        duration: Infinity,
        action: { label: 'Reload', onClick: () => activateWaitingVersion() },
      });
    },
    onRegisterError() {
      // The app works without a service worker, only without offline start.
    },
  });

  function activateWaitingVersion(): void {
    // workbox-window reloads on 'controlling' only for pages that started controlled; reload in every case.
    let reloaded = false;
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (reloaded) return;
      reloaded = true;
      window.location.reload();
    });
    void updateSW(true);
  }
}
