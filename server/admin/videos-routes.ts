import { createRoute } from '@hono/zod-openapi';
import { lockScoringShared } from '#db/locks';
import { createRouter } from '../http/router';
import { errorResponses } from '../http/openapi-helpers';
import { notFound } from '../http/errors';
import { deleteMediaFiles } from '../media/storage';
import { deleteVideoInTx } from '../videos/delete-video';
import { writeTx } from '../changes/write-tx';
import { adminOnly } from './guard';
import { recordAudit } from './audit';
import { decodeTimeCursor } from './cursor';
import { listVideos } from './videos';
import { AdminVideoPage, Ok } from '#sync/rest-api/admin';
import { IdParam, PageQuery } from './schemas';

const list = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/videos',
  summary: 'All videos, newest first',
  request: { query: PageQuery },
  responses: { 200: { description: 'A page of videos.', content: { 'application/json': { schema: AdminVideoPage } } }, ...errorResponses(400, 401, 403) },
});

const remove = createRoute({
  ...adminOnly,
  method: 'delete',
  path: '/videos/{id}',
  summary: "Delete anyone's video, with its files",
  request: { params: IdParam },
  responses: { 200: { description: 'Deleted.', content: { 'application/json': { schema: Ok } } }, ...errorResponses(400, 401, 403, 404) },
});

export function adminVideosRouter() {
  return createRouter()
    .openapi(list, async (c) => {
      const { limit, cursor } = c.req.valid('query');
      return c.json(await listVideos(c.var.deps.db, { limit, cursor: decodeTimeCursor(cursor) }), 200);
    })
    .openapi(remove, async (c) => {
      const { id } = c.req.valid('param');
      const { deps, user } = c.var;
      await writeTx(deps, async (trx, changes) => {
        // Points move (the video's likes, comments and views): the period and eligibility hold until commit.
        await lockScoringShared(trx);
        const gone = await deleteVideoInTx(trx, changes, id);
        if (!gone) throw notFound('No such video.', 'video_not_found');
        await recordAudit(trx, { actorId: user.id, action: 'video.delete', target: id, details: { owner_id: gone.ownerId } }, changes.now);
        changes.afterCommit(() => deleteMediaFiles(deps.media, gone.fileKeys));
      });
      return c.json({ ok: true as const }, 200);
    });
}
