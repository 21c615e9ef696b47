import type { EngineStatus } from './status';
import { trace } from './trace';
import { retryAfterMs } from './retry-after';

/** A push, pull or page that takes longer than this is abandoned and retried. */
export const REQUEST_TIMEOUT_MS = 30_000;

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

export async function errorCode(res: Response): Promise<{ code: string; message: string; last_mutation_id?: number }> {
  try {
    const j = (await res.clone().json()) as { error?: { code?: string; message?: string }; last_mutation_id?: number };
    const out: { code: string; message: string; last_mutation_id?: number } = {
      code: j.error?.code ?? `http_${res.status}`,
      message: j.error?.message ?? res.statusText,
    };
    if (typeof j.last_mutation_id === 'number') out.last_mutation_id = j.last_mutation_id;
    return out;
  } catch {
    return { code: `http_${res.status}`, message: res.statusText };
  }
}

/** The sync engine's requests as one user: bearer token, one refresh on 401, a timeout, and errors by kind. */
export class SyncTransport {
  private readonly opts: TransportOptions;
  private readonly fetchFn: typeof fetch;
  private readonly base: string;

  constructor(opts: TransportOptions) {
    this.opts = opts;
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.base = opts.baseUrl ?? '';
  }

  /** One request with auth: a 401 refreshes the session once and retries. */
  readonly request: Requester = async (path, init, signal) => {
    let res = await this.send(path, init, await this.token(), signal);
    if (res.status === 401) {
      const refreshed = await this.opts.refreshSession().catch(() => null);
      const token = typeof refreshed === 'string' && refreshed ? refreshed : await this.token();
      if (tokenSubject(token) !== null && tokenSubject(token) !== this.opts.userId) throw new PausedError('signed_out');
      res = await this.send(path, init, token, signal);
      if (res.status === 401) throw new PausedError('signed_out');
    }
    if (res.status === 429) throw new RateLimitedError(retryAfterMs(res.headers.get('retry-after')));
    if (res.status >= 500) throw new TemporaryError(`server answered ${res.status}`);
    if (res.status === 403) {
      const { code } = await errorCode(res);
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

  private async send(path: string, init: RequestInitLike, token: string, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    const req: RequestInit = { method: init.method, headers };
    if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      req.body = JSON.stringify(init.body);
    }
    // A request that hangs would hold the flush lock for every tab: give up and retry instead.
    // The event stream has its own idle watchdog, so it passes a signal and no timeout.
    const timeout = signal ? null : new AbortController();
    const timer = timeout ? setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS) : null;
    req.signal = signal ?? timeout!.signal;
    try {
      trace(`fetch:${path}`);
      const res = await this.fetchFn(`${this.base}${path}`, req);
      // The body is read by the caller: keep the timer until headers and body are both in.
      if (timeout) {
        const body = [101, 204, 205, 304].includes(res.status) ? null : await res.arrayBuffer();
        return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      }
      return res;
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new TemporaryError(`network: ${String(err)}`, true);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }
}
