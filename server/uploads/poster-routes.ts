import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppDeps, AppEnv } from '../context';
import { requireUser } from '../auth/middleware';
import { ApiError, forbidden, notFound } from '../http/errors';
import { closingAnswer, DRAIN_BYTES, readBodyUpTo } from '../http/body-limit';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers';
import { createRouter } from '../http/router';
import { posterKeysOf } from '../media/storage';
import { mediaUrl } from '../media/urls';
import { writeTx } from '../changes/write-tx';
import { sniffImage } from './image-type';
import { MAX_POSTERS_PER_VIDEO, posterKey, releasePoster } from './poster-files';
import { lockVideoId } from './video-lock';

export const MAX_POSTER_BYTES = 512 * 1024;

const posterBodies = new WeakMap<Request, Uint8Array>();

/**
 * Who may send this poster, decided before a byte of the body is read: a signed-out caller or one
 * who is not the video's (or its uploads') owner is answered at once, with `Connection: close`
 * (the body stays unread, so the connection cannot carry another request). Checked again when the
 * poster is stored; this is the early refusal, that one is the rule.
 */
const checkCallerFirst = createMiddleware<AppEnv>(async (c, next) => {
  const refusal = await callerRefusal(c);
  if (refusal) return closingAnswer(c, refusal.status, refusal.code, refusal.message);
  await next();
});

async function callerRefusal(c: Context<AppEnv>): Promise<ApiError | null> {
  let owner = true;
  try {
    await requireUser(c, async () => {
      owner = !(await ownedByAnother(c.var.deps, c.req.param('id') ?? '', c.var.user.id));
    });
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  return owner ? null : forbidden('Only the uploader can set the poster of this video.', 'not_owner');
}

async function ownedByAnother(deps: AppDeps, videoId: string, userId: string): Promise<boolean> {
  const video = await deps.db.selectFrom('videos').select('user_id').where('id', '=', videoId).executeTakeFirst();
  if (video) return video.user_id !== userId;
  const other = await deps.db.selectFrom('uploads').select('id').where('video_id', '=', videoId).where('user_id', '!=', userId).executeTakeFirst();
  return !!other;
}

/**
 * Reads the image (at most 512 KiB) before anything can answer: a response sent while the client is
 * still sending makes Node close the socket, and the client would see a network error instead. A
 * larger body is drained (up to DRAIN_BYTES more) and answered 413 with `Connection: close`.
 */
const readPosterBody = createMiddleware<AppEnv>(async (c, next) => {
  const tooLarge = () => closingAnswer(c, 413, 'payload_too_large', `The poster may be at most ${MAX_POSTER_BYTES} bytes (512 KiB).`);
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_POSTER_BYTES + DRAIN_BYTES) return tooLarge();
  const body = c.req.raw.body ? await readBodyUpTo(c.req.raw.body.getReader(), MAX_POSTER_BYTES) : Buffer.alloc(0);
  if (!body) return tooLarge();
  posterBodies.set(c.req.raw, body);
  await next();
});

const binary = z.string().openapi({ type: 'string', format: 'binary' });

const putPoster = createRoute({
  method: 'put',
  path: '/{id}/poster',
  tags: ['uploads'],
  summary: 'Set the poster image of a video (or of an upload still in progress)',
  description:
    'The raw image bytes (JPEG, PNG or WebP, checked by content, at most 512 KiB). Allowed before the video exists: the poster is kept with the upload and attached when the upload finishes. Owner only. Idempotent: the poster URL is derived from the bytes, so sending the same image again changes nothing and returns the same URL; different bytes get a new URL, and the replaced poster stays served until the video is deleted (at most 5 posters per video, then 409).',
  security: bearerSecurity,
  middleware: [checkCallerFirst, readPosterBody] as const,
  request: {
    params: z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' }, description: 'The video id chosen by the client.' }) }),
    body: {
      required: true,
      content: { 'image/jpeg': { schema: binary }, 'image/png': { schema: binary }, 'image/webp': { schema: binary } },
    },
  },
  responses: {
    200: {
      description: 'The poster is stored.',
      content: { 'application/json': { schema: z.object({ video_id: z.string(), poster_url: z.string(), attached_to: z.enum(['video', 'upload']) }) } },
    },
    ...errorResponses(400, 401, 403, 404, 409, 413, 415),
  },
});

/**
 * PUT /api/videos/:id/poster. Mounted in app.ts before the 256 KiB JSON body limit, because its
 * own limit (512 KiB of image) applies instead.
 */
export function posterRouter() {
  const router = createRouter();
  router.openapi(putPoster, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    const bytes = posterBodies.get(c.req.raw) ?? new Uint8Array();
    if (bytes.length === 0) throw new ApiError(400, 'empty_body', 'Send the poster image as the request body.');
    const type = sniffImage(bytes);
    if (!type) throw new ApiError(415, 'unsupported_media_type', 'The poster must be a JPEG, PNG or WebP image.');

    const key = posterKey(user.id, id, bytes, type.extension);
    // New bytes for this video: refuse before writing once the video holds too many posters.
    const known = await posterKeysOf(deps.media, user.id, id);
    if (!known.includes(key) && known.length >= MAX_POSTERS_PER_VIDEO) {
      throw new ApiError(409, 'too_many_posters', `A video keeps at most ${MAX_POSTERS_PER_VIDEO} posters; this one already has them.`);
    }
    // The object exists before any row names it, so a page never gets a URL without bytes behind it.
    const created = await deps.media.putOnce(key, bytes, type.mimeType);

    // One transaction under the video id's lock (which the upload's finish holds too), so a poster
    // racing the finish lands on either the upload or the video.
    // The replaced poster's file stays: a page that loaded its URL a moment ago still shows it (the
    // video's deletion removes them all).
    const outcome = await writeTx(deps, async (trx, changes) => {
      await lockVideoId(trx, id);
      const now = changes.now;
      const video = await trx.selectFrom('videos').select(['user_id', 'poster_key']).where('id', '=', id).executeTakeFirst();
      if (video) {
        if (video.user_id !== user.id) return { error: forbidden('Only the uploader can set the poster of this video.', 'not_owner') };
        if (video.poster_key === key) return { attachedTo: 'video' as const, changed: false };
        await trx.updateTable('videos').set({ poster_key: key }).where('id', '=', id).execute();
        changes.video(id);
        return { attachedTo: 'video' as const, changed: true };
      }
      const uploads = await trx.selectFrom('uploads').select(['id', 'user_id', 'poster_key', 'status']).where('video_id', '=', id).execute();
      if (uploads.some((u) => u.user_id !== user.id)) return { error: forbidden('Only the uploader can set the poster of this video.', 'not_owner') };
      const mine = uploads.filter((u) => u.status === 'uploading');
      if (!mine.length) return { error: notFound('Start the video upload before sending its poster.', 'upload_not_found') };
      if (mine.every((u) => u.poster_key === key)) return { attachedTo: 'upload' as const, changed: false };
      await trx.updateTable('uploads').set({ poster_key: key, updated_at: now }).where('video_id', '=', id).where('status', '=', 'uploading').execute();
      return { attachedTo: 'upload' as const, changed: true };
    });
    if ('error' in outcome) {
      if (created) await releasePoster(deps, key);
      throw outcome.error;
    }
    return c.json({ video_id: id, poster_url: mediaUrl(key) ?? '', attached_to: outcome.attachedTo }, 200);
  });
  return router;
}
