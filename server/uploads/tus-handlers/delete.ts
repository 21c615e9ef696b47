import { releasePoster } from '../poster-files';
import type { VerbHandler } from './context';
import { closedUpload, ownUpload } from './own-upload';

/** Termination (https://tus.io/protocols/resumable-upload#termination). */
export const handleDelete: VerbHandler = async (ctx, request, user) => {
  const found = await ownUpload(ctx, request, user);
  if (found instanceof Response) return found;
  const closed = closedUpload(ctx, found.row);
  if (closed) return closed;
  const res = await ctx.forward(request, user);
  // "the Server SHOULD free associated resources and MUST respond with the 204 No Content status confirming
  // that the upload was terminated": @tus/server answers 204 once the file is gone; the row and poster follow.
  if (res.status === 204) {
    const { deps } = ctx;
    await deps.db
      .updateTable('uploads')
      .set({ status: 'cancelled', reason: 'Cancelled by the uploader.', poster_key: null, updated_at: deps.now() })
      .where('id', '=', found.id)
      .execute();
    await releasePoster(deps, found.row.poster_key, { userId: found.row.user_id, videoId: found.row.video_id });
  }
  return res;
};
