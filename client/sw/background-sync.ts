// Background Sync in the service worker (docs/pwa.md, "Sync while closed"): filled in by that work.
export function listenForBackgroundSync(): void {}
