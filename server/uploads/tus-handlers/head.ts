import type { VerbHandler } from './context';
import { closedUpload, ownUpload } from './own-upload';

/** The offset of an upload (https://tus.io/protocols/resumable-upload#head). */
export const handleHead: VerbHandler = async (ctx, request, user) => {
  const found = await ownUpload(ctx, request, user);
  if (found instanceof Response) return found;
  if (found.row.status !== 'completed') return closedUpload(ctx, found.row) ?? ctx.forward(request, user);
  // A client that lost the last response learns that the upload is complete: "The Server MUST always include
  // the Upload-Offset header in the response for a HEAD request, even if the offset is 0, or the upload is
  // already considered completed. If the size of the upload is known, the Server MUST include the
  // Upload-Length header in the response. [...] The Server MUST prevent the client and/or proxies from
  // caching the response by adding the Cache-Control: no-store header to the response."
  const size = String(found.row.size_bytes ?? 0);
  return new Response(null, {
    status: 200,
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': size,
      'Upload-Length': size,
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': ctx.deps.config.publicUrl,
      'Access-Control-Expose-Headers': 'Upload-Offset, Upload-Length, Tus-Resumable',
    },
  });
};
