import { ApiError } from '../http/api-error';
import { HttpClient, type JsonAnswer } from '../http/http-client';

export type { JsonAnswer };

/** Auth calls: no stored token (the refresh cookie, or a token passed per call). */
const authHttp = new HttpClient();

/** Status and body of an auth call; throws an ApiError with status 0 only when no answer came. */
export function requestJson(method: string, path: string, body?: unknown, token?: string | null): Promise<JsonAnswer> {
  return authHttp.answer(method, path, body, token ?? null);
}

/** No answer came (offline, timed out): as opposed to an answer that refused. */
export function isNoAnswer(e: unknown): boolean {
  return e instanceof ApiError && !e.answered;
}

/** The server turned a refresh down for good (the cookie is missing, expired or revoked): signed out. */
export function isRefusedRefresh(status: number): boolean {
  return status === 400 || status === 401 || status === 403;
}
