import { retryAfterMs } from './retry-after';

/** The sentence shown when no answer came at all (offline, timed out). */
export const NO_ANSWER_MESSAGE = 'The server could not be reached. Check your connection and try again.';

/**
 * Every failed API call, from every part of the app: `status` 0 when no answer came (network down,
 * timeout), otherwise the HTTP status with the API's `{error: {code, message}}` (docs/layout.md,
 * "Errors"): `code` for programs, `message` a sentence a member may be shown.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: {
      /** The account an auth refusal is about (an unpaid sign-up). */
      userId?: string | null;
      /** How long a 429 or 503 asked to wait. */
      retryAfterMs?: number | null;
      /** The server's last applied mutation id, on a sync push's 409. */
      lastMutationId?: number;
    } = {},
  ) {
    super(message);
  }

  /** The server answered (as opposed to the network failing or the request timing out). */
  get answered(): boolean {
    return this.status > 0;
  }
}

/** An answer from the server that was an error (not a network failure). */
export function isErrorAnswer(e: unknown): e is ApiError {
  return e instanceof ApiError && e.answered;
}

export function noAnswer(code: 'network' | 'timeout', cause?: unknown): ApiError {
  const e = new ApiError(0, code, NO_ANSWER_MESSAGE);
  if (cause !== undefined) Object.defineProperty(e, 'cause', { value: cause });
  return e;
}

/** The error an error answer carries; `fallback` when its body is not the API's error shape. */
export function apiErrorOf(status: number, data: unknown, headers?: Headers, fallback = 'Something went wrong. Please try again.'): ApiError {
  const body = (data ?? {}) as { error?: { code?: unknown; message?: unknown; user_id?: unknown }; user_id?: unknown; last_mutation_id?: unknown };
  const err = body.error ?? {};
  const userId = typeof err.user_id === 'string' ? err.user_id : typeof body.user_id === 'string' ? body.user_id : null;
  const retryAfter = headers?.get('retry-after') ?? null;
  const details: ApiError['details'] = { userId, retryAfterMs: retryAfter === null ? null : retryAfterMs(retryAfter) };
  if (typeof body.last_mutation_id === 'number') details.lastMutationId = body.last_mutation_id;
  return new ApiError(status, typeof err.code === 'string' ? err.code : `http_${status}`, typeof err.message === 'string' ? err.message : fallback, details);
}

/** Reads an error answer's body (left unread for the caller) into an ApiError; `fallback` as in apiErrorOf. */
export async function apiErrorFromResponse(res: Response, fallback?: string): Promise<ApiError> {
  const data: unknown = await res
    .clone()
    .json()
    .catch(() => null);
  return apiErrorOf(res.status, data, res.headers, fallback);
}

/** The sentence to show for a failed call: the server's own, or `fallback` for anything else. */
export function messageOf(e: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return e instanceof ApiError ? e.message : fallback;
}
