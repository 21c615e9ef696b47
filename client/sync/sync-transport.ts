import type { EngineStatus } from './status';
import { trace } from './trace';
import { retryAfterMs } from '../lib/http/retry-after';
import { ApiError, apiErrorFromResponse } from '../lib/http/api-error';
import { HttpClient, REQUEST_TIMEOUT_MS, type BearerAuth } from '../lib/http/http-client';

/** A push, pull or page that takes longer than this is abandoned and retried. */
export { REQUEST_TIMEOUT_MS };

/** A network failure or 5xx: retried with backoff. */
export class TemporaryError extends Error {
  constructor(
    message: string,
    readonly offline = false,
  ) {
    super(message);
  }
}

/** 429: the server asked the device to wait (Retry-After) before it sends again. Nothing was applied. */
export class RateLimitedError extends TemporaryError {
  constructor(readonly waitMs: number) {
    super(`rate limited for ${waitMs} ms`);
  }
}

/** Sending is not possible as this user right now (signed out, suspended): the queue waits. */
export class PausedError extends Error {
  constructor(readonly reason: NonNullable<EngineStatus['paused']>) {
    super(reason);
  }
}

export interface TransportOptions {
  userId: string;
  /** The current access token of userId, or null when signed out. */
  getAccessToken: () => string | null | Promise<string | null>;
  /** Refreshes the session; may return the new token. Called once per 401 before giving up. */
  refreshSession: () => Promise<unknown>;
  fetch?: typeof fetch;
  /** Origin of the API ('' in the browser: same origin). */
  baseUrl?: string;
}

export type RequestInitLike = { method: string; body?: unknown };
export type Requester = (path: string, init: RequestInitLike, signal?: AbortSignal) => Promise<Response>;

function tokenSubject(token: string): string | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof json.sub === 'string' ? json.sub : null;
  } catch {
    return null;
  }
}

/** The sync engine's requests as one user: bearer token, one refresh on 401, a timeout, and errors by kind. */
export class SyncTransport {
  private readonly opts: TransportOptions;
  private readonly http: HttpClient;
  /** Streams pass their own signal and have their own idle watchdog: no timeout. */
  private readonly streamHttp: HttpClient;

  constructor(opts: TransportOptions) {
    this.opts = opts;
    const auth: BearerAuth = { token: () => this.token(), refresh: () => this.refreshed() };
    const base = { baseUrl: opts.baseUrl ?? '', ...(opts.fetch ? { fetch: opts.fetch } : {}), auth };
    // A request that hangs would hold the flush lock for every tab: give up and retry instead.
    this.http = new HttpClient({ ...base, timeoutMs: REQUEST_TIMEOUT_MS });
    this.streamHttp = new HttpClient({ ...base, timeoutMs: null });
  }

  /** One request with auth: a 401 refreshes the session once and retries. */
  readonly request: Requester = async (path, init, signal) => {
    trace(`fetch:${path}`);
    const client = signal ? this.streamHttp : this.http;
    let res: Response;
    try {
      res = await client.send(path, signal ? { ...init, signal } : init);
    } catch (err) {
      if (err instanceof ApiError && !err.answered) throw new TemporaryError(`network: ${err.code}`, true);
      throw err;
    }
    if (res.status === 401) throw new PausedError('signed_out');
    if (res.status === 429) throw new RateLimitedError(retryAfterMs(res.headers.get('retry-after')));
    if (res.status >= 500) throw new TemporaryError(`server answered ${res.status}`);
    if (res.status === 403) {
      const { code } = await apiErrorFromResponse(res);
      if (code === 'client_id_taken') return res;
      throw new PausedError(code === 'account_suspended' || code === 'payment_required' ? code : 'forbidden');
    }
    return res;
  };

  private async token(): Promise<string> {
    const token = await this.opts.getAccessToken();
    if (!token) throw new PausedError('signed_out');
    // Never send this user's queue under someone else's identity.
    const sub = tokenSubject(token);
    if (sub !== null && sub !== this.opts.userId) throw new PausedError('signed_out');
    return token;
  }

  /** The token after a refresh, or null (then the 401 stands and the queue pauses). */
  private async refreshed(): Promise<string | null> {
    const refreshed = await this.opts.refreshSession().catch(() => null);
    const token = typeof refreshed === 'string' && refreshed ? refreshed : await this.opts.getAccessToken();
    if (!token || (tokenSubject(token) !== null && tokenSubject(token) !== this.opts.userId)) return null;
    return token;
  }
}
