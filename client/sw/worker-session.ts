import { isRefusedRefresh, requestJson } from '../lib/session/http';
import { withRefreshLock } from '../lib/session/refresh-lock';
import { isAuthSession } from '../lib/session/session-types';

/** A session the worker obtained: the access token and whose it is. */
export interface WorkerSession {
  token: string;
  userId: string;
}

/**
 * Trades the HttpOnly refresh cookie for an access token (`POST /api/auth/refresh`, same origin)
 * under the same Web Lock as the pages' refreshes (client/lib/session/refresh-lock.ts). Null when
 * the server refused it (signed out: the queue waits for the next sign-in); throws when no answer
 * came or the server failed (the browser retries the sync later).
 */
export async function refreshInWorker(): Promise<WorkerSession | null> {
  const ans = await withRefreshLock(() => requestJson('POST', '/api/auth/refresh', {}));
  if (ans.ok && isAuthSession(ans.data)) return { token: ans.data.access_token, userId: ans.data.user.id };
  if (isRefusedRefresh(ans.status)) return null;
  throw new Error(`refresh answered ${ans.status}`);
}
