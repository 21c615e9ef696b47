import { apiErrorFromResponse, noAnswer } from './api-error';

/** A request that takes longer than this is abandoned (ApiError 'timeout'); callers retry as they see fit. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface BearerAuth {
  /** The current access token, or null when there is none. */
  token(): string | null | Promise<string | null>;
  /** Refreshes the session; the new token, or null when the session is over. Called at most once per request. */
  refresh(): Promise<string | null>;
  /** The retried request was refused again: the session is over. */
  onRejected?(): void;
}

export interface HttpOptions {
  /** Origin of the API ('' in the browser: same origin). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** null: no timeout (a stream, which has its own watchdog). */
  timeoutMs?: number | null;
  auth?: BearerAuth;
}

export interface SendInit {
  method: string;
  /** A JSON body. */
  body?: unknown;
  /** A file sent as it is instead (a poster, captions), typed by `headers['content-type']` or else its own type. */
  blob?: Blob;
  /** A bearer token for this call only (instead of `auth`). */
  token?: string | null;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** The fetch priority: a download kept for later goes 'low', so it does not slow down what plays now. */
  priority?: 'high' | 'low' | 'auto';
}

/** The answer of a call whose error answers the caller reads itself. */
export interface JsonAnswer {
  status: number;
  ok: boolean;
  data: unknown;
}

/**
 * The one HTTP client of the browser app: JSON bodies, a timeout, the bearer token with one refresh
 * and retry on a 401, and every failure as an ApiError (status 0 when no answer came). Auth, admin,
 * payments and the sync engine each build theirs with the options they need.
 */
export class HttpClient {
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: HttpOptions = {}) {
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The raw answer (any status). Throws only when no answer came. A 401 refreshes once and retries. */
  async send(path: string, init: SendInit): Promise<Response> {
    const auth = init.token === undefined ? this.opts.auth : undefined;
    const first = await this.once(path, init, init.token ?? (auth ? await auth.token() : null));
    if (first.status !== 401 || !auth) return first;
    const fresh = await auth.refresh().catch(() => null);
    if (!fresh) return first;
    const retry = await this.once(path, init, fresh);
    if (retry.status === 401) auth.onRejected?.();
    return retry;
  }

  /** The parsed body of a 2xx answer; any other answer throws its ApiError. */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(path, { method, body });
    if (!res.ok) throw await apiErrorFromResponse(res);
    return (await res.json().catch(() => null)) as T;
  }

  /** Status and parsed body (null when not JSON), error answers included. */
  async answer(method: string, path: string, body?: unknown, token?: string | null): Promise<JsonAnswer> {
    const res = await this.send(path, token === undefined ? { method, body } : { method, body, token });
    const data: unknown = await res.json().catch(() => null);
    return { status: res.status, ok: res.ok, data };
  }

  private async once(path: string, init: SendInit, token: string | null): Promise<Response> {
    const req = requestInit(init, token);
    const deadline = init.signal ? null : startDeadline(this.opts.timeoutMs === undefined ? REQUEST_TIMEOUT_MS : this.opts.timeoutMs);
    req.signal = init.signal ?? deadline?.signal ?? null;
    try {
      const res = await this.fetchFn(`${this.opts.baseUrl ?? ''}${path}`, req);
      // The timeout covers the body too: read it before the timer stops.
      return deadline ? await withBodyRead(res) : res;
    } catch (err) {
      if (init.signal?.aborted) throw err;
      throw noAnswer(deadline?.signal.aborted ? 'timeout' : 'network', err);
    } finally {
      deadline?.stop();
    }
  }
}

/** Aborts its signal after `ms`; null when there is no timeout. */
function startDeadline(ms: number | null): { signal: AbortSignal; stop(): void } | null {
  if (ms === null) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  return { signal: controller.signal, stop: () => clearTimeout(timer) };
}

function requestInit(init: SendInit, token: string | null): RequestInit {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  const req: RequestInit & { priority?: SendInit['priority'] } = { method: init.method, headers, credentials: 'same-origin' };
  if (init.priority) req.priority = init.priority;
  if (init.blob) {
    headers['content-type'] ??= init.blob.type || 'application/octet-stream';
    req.body = init.blob;
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    req.body = JSON.stringify(init.body);
  }
  return req;
}

async function withBodyRead(res: Response): Promise<Response> {
  const body = [101, 204, 205, 304].includes(res.status) ? null : await res.arrayBuffer();
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
