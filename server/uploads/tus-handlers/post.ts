import { storageRefusal } from '../quotas';
import type { VerbHandler } from './context';
import { TUS_PATH } from './own-upload';

/** Creation (https://tus.io/protocols/resumable-upload#creation); the member's limits are checked in the tus hook. */
export const handlePost: VerbHandler = async (ctx, request, user) => {
  const path = new URL(request.url).pathname;
  if (path !== TUS_PATH && path !== `${TUS_PATH}/`) return ctx.json(404, 'not_found', 'Uploads are created at /files/.');
  // "The request MUST include one of the following headers: a) Upload-Length [...] b) Upload-Defer-Length: 1";
  // we leave out creation-defer-length, so only the first will do: 120 MiB is checked before any byte.
  if (request.headers.has('upload-defer-length'))
    return ctx.json(400, 'length_required', 'Upload-Length is required: the size must be known before the upload starts.');
  const refusal = await storageRefusal(ctx.deps, Number(request.headers.get('upload-length')) || 0);
  if (refusal) return ctx.json(refusal.status, refusal.code, refusal.message, { 'Retry-After': String(refusal.retryAfter) });
  const res = await ctx.forward(request, user);
  const wait = ctx.retryAfterOf(request);
  if (wait) res.headers.set('Retry-After', String(wait));
  return res;
};
