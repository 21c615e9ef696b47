// Web Push in the service worker (docs/notifications.md): filled in by the notifications work.
export function listenForPush(): void {}
