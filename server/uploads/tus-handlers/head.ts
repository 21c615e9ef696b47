import type { TusContext, VerbHandler } from './context';
import { closedUpload, ownUpload } from './own-upload';

/**
 * A completed upload's Upload-Metadata, from its `uploads` row (tus's own record of it went with the
 * file): the keys the app's client sends (client/sync/uploads/upload-queue.ts), in its order, with the
 * values the creation hook kept (server/uploads/metadata.ts: trimmed, so a client that padded a
 * title reads it back without the spaces). Encoded as @tus/server encodes an open upload's.
 */
async function completedMetadata(ctx: TusContext, id: string): Promise<string> {
  const row = await ctx.deps.db
    .selectFrom('uploads')
    .select(['video_id', 'title', 'description', 'filename', 'filetype'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const pairs: Array<[string, string]> = [
    ['videoId', row.video_id],
    ['title', row.title],
    ['description', row.description],
    ['filename', row.filename],
    ['filetype', row.filetype],
  ];
  return pairs.map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`).join(',');
}

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
      // "If an upload contains additional metadata, responses to HEAD requests MUST include the
      // Upload-Metadata header and its value as specified by the Client during the creation."
      // (https://tus.io/protocols/resumable-upload#upload-metadata)
      'Upload-Metadata': await completedMetadata(ctx, found.id),
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': ctx.deps.config.publicUrl,
      'Access-Control-Expose-Headers': 'Upload-Offset, Upload-Length, Upload-Metadata, Tus-Resumable',
    },
  });
};
