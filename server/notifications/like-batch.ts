// The batching window of likes (PUSH_LIKE_BATCH_SECONDS). A mutation's context carries no
// configuration (server/sync/mutations/server-tables.ts), so the process keeps the configured
// value here: startPushSenders sets it from the config at start-up.

let windowMs = 60_000;

/** How long the first pending like of a video waits for more before its push goes out. */
export function likeBatchMs(): number {
  return windowMs;
}

export function setLikeBatchMs(ms: number): void {
  windowMs = ms;
}
