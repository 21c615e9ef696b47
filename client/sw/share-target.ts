// The share target's POST in the service worker (docs/pwa.md, "Share into Vidi"): filled in by that work.
export function listenForShares(): void {}
