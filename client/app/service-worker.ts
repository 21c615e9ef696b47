import { registerSW } from 'virtual:pwa-register';
import { toast } from '../ui/toast';

const UPDATE_TOAST_ID = 'sw-update';
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker. A new version waits until the member agrees to reload, so a page never
 * mixes old and new assets (no stale-asset blank screens).
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  let registration: ServiceWorkerRegistration | undefined;

  registerSW({
    // After the page's load event (workbox-window's default): installing fetches the whole precache,
    // which must not compete with the first visit's own requests on a slow connection.
    immediate: false,
    onNeedRefresh: promptReload,
    onRegisteredSW(_url, reg) {
      if (!reg) return;
      registration = reg;
      watchForWaitingWorker(reg);
      setInterval(() => void reg.update().catch(() => undefined), UPDATE_CHECK_MS);
    },
    onRegisterError() {
      // The app works without a service worker, only without offline start.
    },
  });

  // workbox-window reports only some updates (its 'external' heuristics): watch the registration as well.
  function watchForWaitingWorker(reg: ServiceWorkerRegistration): void {
    const check = () => {
      if (reg.waiting && navigator.serviceWorker.controller) promptReload();
    };
    check();
    reg.addEventListener('updatefound', () => {
      const sw = reg.installing;
      sw?.addEventListener('statechange', () => {
        if (sw.state === 'installed') check();
      });
    });
  }

  function promptReload(): void {
    toast('A new version of Vidi is available.', {
      id: UPDATE_TOAST_ID,
      duration: Infinity,
      action: { label: 'Reload', onClick: activateWaitingVersion },
    });
  }

  function activateWaitingVersion(): void {
    let reloaded = false;
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (reloaded) return;
      reloaded = true;
      window.location.reload();
    });
    const waiting = registration?.waiting;
    if (waiting) waiting.postMessage({ type: 'SKIP_WAITING' });
    else window.location.reload();
  }
}
