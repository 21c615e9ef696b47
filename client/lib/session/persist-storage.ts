/** localStorage: set once this device has asked for persistent storage (whatever the answer). */
export const PERSIST_ASKED_KEY = 'vidi.storage.persistAsked';

/**
 * Asks the browser to keep this origin's storage (the outbox, the upload queue, saved videos) out
 * of eviction (docs/pwa.md, "Persistent storage"), once per device and at a moment the member can
 * tell why: the app was installed or runs installed, or something was first kept for later (an
 * offline like or comment, a video saved for offline, a queued upload). Chromium decides from
 * engagement and installation without a prompt; other browsers may prompt, which is why it is not
 * asked at sign-in. Feature-detected, never awaited by the caller.
 */
export function requestPersistentStorage(): void {
  const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  if (!storage || typeof storage.persist !== 'function' || typeof localStorage === 'undefined') return;
  try {
    if (localStorage.getItem(PERSIST_ASKED_KEY)) return;
    localStorage.setItem(PERSIST_ASKED_KEY, String(Date.now()));
  } catch {
    // No localStorage (blocked): asking on every moment is still better than never.
  }
  void storage.persist().catch(() => false);
}

let watching = false;

/** Asks at install (`appinstalled`) or at start when the app runs installed (standalone). */
export function persistWhenInstalled(): void {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  if (window.matchMedia?.('(display-mode: standalone)').matches) requestPersistentStorage();
  else window.addEventListener('appinstalled', requestPersistentStorage, { once: true });
}
