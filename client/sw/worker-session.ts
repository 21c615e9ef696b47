import { HttpClient } from '../lib/http/http-client';
import { withRefreshLock } from '../lib/session/refresh-lock';
import { isAuthSession } from '../lib/session/session-types';

/** A session the worker obtained: the access token and whose it is. */
export interface WorkerSession {
  token: string;
  userId: string;
}

const http = new HttpClient();

/**
 * Trades the HttpOnly refresh cookie for an access token (`POST /api/auth/refresh`, same origin)
 * under the same Web Lock as the pages' refreshes (client/lib/session/refresh-lock.ts). Null when
 * the server refused it (signed out: the queue waits for the next sign-in); throws when no answer
 * came or the server failed (the browser retries the sync later).
 */
export async function refreshInWorker(): Promise<WorkerSession | null> {
  const ans = await withRefreshLock(() => http.answer('POST', '/api/auth/refresh', {}, null));
  if (ans.ok && isAuthSession(ans.data)) return { token: ans.data.access_token, userId: ans.data.user.id };
  if (ans.status === 400 || ans.status === 401 || ans.status === 403) return null;
  throw new Error(`refresh answered ${ans.status}`);
}
