import { errorBody } from '#server/http/errors';
import { ERRORS } from '@tus/server';
import { MAX_UPLOAD_BYTES } from '#sync/protocol/limits';

const TUS_ERROR_CODES: Record<number, string> = {
  400: 'invalid_request',
  403: 'forbidden',
  404: 'upload_not_found',
  409: 'offset_conflict',
  410: 'upload_expired',
  412: 'unsupported_tus_version',
  413: 'file_too_large',
  415: 'unsupported_media_type',
  423: 'upload_locked',
  500: 'internal',
  501: 'not_supported',
};

export type JsonError = (status: number, code: string, message: string, extra?: Record<string, string>) => Response;

/** Our own refusals, in the API's `{"error":{code,message}}` shape, readable by the app's origin. */
export function jsonErrors(origin: string): JsonError {
  return (status, code, message, extra = {}) =>
    new Response(JSON.stringify(errorBody(code, message)), {
      status,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        // "The Tus-Resumable header MUST be included in every request and response except for OPTIONS
        // requests." (https://tus.io/protocols/resumable-upload#tus-resumable)
        'Tus-Resumable': '1.0.0',
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Expose-Headers': 'Upload-Offset, Upload-Length, Tus-Resumable, Location',
        'Cache-Control': 'no-store',
        ...extra,
      },
    });
}

/** tus answers errors in plain text; the API promises `{"error":{code,message}}` everywhere. */
export async function asJsonError(res: Response, method: string): Promise<Response> {
  if (res.status < 400 || method === 'HEAD') return res;
  const text = (await res.text()).trim();
  if (text === ERRORS.ERR_LOCK_TIMEOUT.body) return lockedAnswer(res);
  const headers = new Headers(res.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.delete('Content-Length');
  let body = text;
  if (!text.startsWith('{')) {
    const message =
      res.status === 413 ? `The file is larger than ${MAX_UPLOAD_BYTES} bytes (${MAX_UPLOAD_BYTES / 1048576} MiB).` : text || 'Upload request failed.';
    body = JSON.stringify(errorBody(TUS_ERROR_CODES[res.status] ?? 'upload_error', message));
  }
  return new Response(body, { status: res.status, headers });
}

/**
 * tus answers 500 when another request (on any instance: server/uploads/upload-locker.ts) kept the
 * upload for the whole lock timeout. Nothing failed on the server: the upload is busy, so 423 with
 * a time to come back, which tus-js-client retries.
 */
function lockedAnswer(res: Response): Response {
  const headers = new Headers(res.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Retry-After', '5');
  headers.delete('Content-Length');
  const body = JSON.stringify(errorBody('upload_locked', 'Another request is writing this upload. Try again shortly.'));
  return new Response(body, { status: 423, headers });
}
