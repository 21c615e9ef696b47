import type { VerbHandler } from './context';
import { closedUpload, ownUpload } from './own-upload';

/**
 * Bytes at an offset (https://tus.io/protocols/resumable-upload#patch). @tus/server enforces the
 * offset: "If the offsets do not match, the Server MUST respond with the 409 Conflict status without
 * modifying the upload resource."
 */
export const handlePatch: VerbHandler = async (ctx, request, user) => {
  const found = await ownUpload(ctx, request, user);
  if (found instanceof Response) return found;
  const closed = closedUpload(ctx, found.row);
  if (closed) return closed;
  // "All PATCH requests MUST use Content-Type: application/offset+octet-stream, otherwise the server
  // SHOULD return a 415 Unsupported Media Type status."
  if (request.headers.get('content-type') !== 'application/offset+octet-stream') {
    return ctx.json(415, 'unsupported_media_type', 'PATCH bodies must be sent as application/offset+octet-stream.');
  }
  return ctx.forward(request, user);
};
