import { createHash } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { ApiError, forbidden, notFound } from '../http/errors';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { createRouter } from '../http/router';
import { mediaContentType, mediaUrl } from '../media/urls';
import { validateWebVtt } from '../media/captions';
import { writeTx } from '../changes/write-tx';
import { requireUser } from '../auth/middleware';
import { lockVideoId } from './video-lock';
import { MAX_CAPTIONS_BYTES } from '#sync/protocol/limits';

/** Content-addressed under the video's own folder, which the video's deletion removes whole. */
function captionsKey(userId: string, videoId: string, bytes: Uint8Array): string {
  return `${userId}/${videoId}/captions-${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.vtt`;
}

const putCaptions = createRoute({
  method: 'put',
  path: '/{id}/captions',
  tags: ['uploads'],
  summary: 'Set the WebVTT captions of a video',
  description:
    'The raw WebVTT text (UTF-8, at most 100 KB, checked cue by cue). Owner only; the video must exist (send it once the upload has finished). Idempotent: the same text gives the same URL.',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: {
    params: z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' }, description: 'The video id chosen by the client.' }) }),
    body: { required: true, content: { 'text/vtt': { schema: z.string() } } },
  },
  responses: {
    200: { description: 'The captions are stored.', content: { 'application/json': { schema: z.object({ video_id: z.string(), captions_url: z.string() }) } } },
    ...errorResponses(400, 401, 403, 404, 413, 415),
  },
});

/** PUT /api/videos/:id/captions (docs/media.md, "Captions"). */
export function captionsRouter() {
  const router = createRouter();
  router.openapi(putCaptions, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > MAX_CAPTIONS_BYTES) throw new ApiError(413, 'payload_too_large', 'Captions may be at most 100 KB.');
    const checked = validateWebVtt(bytes);
    if (!checked.ok) throw new ApiError(415, 'invalid_captions', `These captions are not valid WebVTT: ${checked.reason}`);

    const video = await deps.db.selectFrom('videos').select(['user_id', 'captions_key']).where('id', '=', id).executeTakeFirst();
    if (!video) throw notFound('Send the captions once the video upload has finished.', 'video_not_found');
    if (video.user_id !== user.id) throw forbidden('Only the uploader can set the captions of this video.', 'not_owner');
    const key = captionsKey(user.id, id, bytes);
    // The object exists before any row names it, so a page never gets a URL without bytes behind it.
    await deps.media.putOnce(key, bytes, mediaContentType(key));
    const replaced = await writeTx(deps, async (trx, changes) => {
      // Two PUTs at once: the second reads the first's key, so every replaced file is removed.
      await lockVideoId(trx, id);
      const now = await trx.selectFrom('videos').select('captions_key').where('id', '=', id).executeTakeFirst();
      if (!now || now.captions_key === key) return null;
      await trx.updateTable('videos').set({ captions_key: key }).where('id', '=', id).execute();
      changes.video(id);
      return now.captions_key;
    });
    if (replaced) await deps.media.delete([replaced]);
    return c.json({ video_id: id, captions_url: mediaUrl(key) ?? '' }, 200);
  });
  return router;
}
