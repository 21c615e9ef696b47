import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Every error the API returns has this shape (docs/layout.md, "Conventions"). */
export interface ErrorBody {
  error: { code: string; message: string };
}

/** A failure the caller caused or may act on: becomes a 4xx JSON error. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'invalid_request') => new ApiError(400, code, message);
export const unauthorized = (message = 'Sign in to continue.', code = 'unauthorized') => new ApiError(401, code, message);
export const forbidden = (message = 'You are not allowed to do this.', code = 'forbidden') => new ApiError(403, code, message);
export const notFound = (message = 'Not found.', code = 'not_found') => new ApiError(404, code, message);
export const conflict = (message: string, code = 'conflict') => new ApiError(409, code, message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please try again later.') =>
  new ApiError(429, 'rate_limited', message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}
