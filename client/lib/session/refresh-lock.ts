/**
 * The Web Lock every refresh of the session takes: the pages' (session.ts) and the service worker's
 * (client/sw/worker-session.ts). Refresh tokens rotate and a reused one revokes the whole family,
 * so two refreshes at once, in two tabs or a tab and the worker, would sign the member out.
 */
export const REFRESH_LOCK = 'vidi-auth-refresh';

export function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request(REFRESH_LOCK, fn) as unknown as Promise<T>) : fn();
}
