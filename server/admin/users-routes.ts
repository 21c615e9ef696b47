import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../http/router';
import { errorResponses } from '../http/openapi-helpers';
import { deleteMediaFiles } from '../media/storage';
import { adminOnly } from './guard';
import { recordAudit } from './audit';
import { decodeTimeCursor } from './cursor';
import { deleteUserInTx } from './delete-user';
import { writeTx } from '../changes/write-tx';
import { listUsers, setUserActive } from './users';
import { AdminUser, AdminUserPage, Ok } from '#sync/rest-api/admin';
import { IdParam, UserPageQuery } from './schemas';
import { z } from '@hono/zod-openapi';

const list = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/users',
  summary: 'Users, newest first, optionally filtered by part of the name or e-mail',
  request: { query: UserPageQuery },
  responses: { 200: { description: 'A page of users.', content: { 'application/json': { schema: AdminUserPage } } }, ...errorResponses(400, 401, 403) },
});

const statusChange = (path: string, summary: string) =>
  createRoute({
    ...adminOnly,
    method: 'post',
    path,
    summary,
    request: { params: IdParam },
    responses: {
      200: {
        description: 'The user as it is now.',
        content: { 'application/json': { schema: z.object({ user: AdminUser.pick({ id: true, is_active: true }) }) } },
      },
      ...errorResponses(400, 401, 403, 404),
    },
  });

const suspend = statusChange(
  '/users/{id}/suspend',
  'Suspend a user: they cannot sign in and their sessions stop working (never an admin: 403 target_is_admin)',
);
const reactivate = statusChange('/users/{id}/reactivate', 'Reactivate a suspended user');

const remove = createRoute({
  ...adminOnly,
  method: 'delete',
  path: '/users/{id}',
  summary: 'Delete a user with their videos, files, likes, comments, views and sessions (never an admin: 403 target_is_admin)',
  request: { params: IdParam },
  responses: { 200: { description: 'Deleted.', content: { 'application/json': { schema: Ok } } }, ...errorResponses(400, 401, 403, 404) },
});

export function adminUsersRouter() {
  return createRouter()
    .openapi(list, async (c) => {
      const { limit, cursor, q } = c.req.valid('query');
      return c.json(await listUsers(c.var.deps.db, { limit, cursor: decodeTimeCursor(cursor), search: q }), 200);
    })
    .openapi(suspend, async (c) => {
      const { id } = c.req.valid('param');
      const { deps, user } = c.var;
      const result = await writeTx(deps, async (trx, changes) => {
        const result = await setUserActive(trx, changes, user.id, id, false);
        if (result.changed) await recordAudit(trx, { actorId: user.id, action: 'user.suspend', target: id, details: { email: result.email } }, changes.now);
        return result;
      });
      // Their open event streams would otherwise keep receiving pokes until they reconnect.
      if (result.changed) deps.liveStreams.endUser(id);
      return c.json({ user: { id, is_active: false } }, 200);
    })
    .openapi(reactivate, async (c) => {
      const { id } = c.req.valid('param');
      const { deps, user } = c.var;
      await writeTx(deps, async (trx, changes) => {
        const result = await setUserActive(trx, changes, user.id, id, true);
        if (result.changed) await recordAudit(trx, { actorId: user.id, action: 'user.reactivate', target: id, details: { email: result.email } }, changes.now);
      });
      return c.json({ user: { id, is_active: true } }, 200);
    })
    .openapi(remove, async (c) => {
      const { id } = c.req.valid('param');
      const { deps, user } = c.var;
      await writeTx(deps, async (trx, changes) => {
        const result = await deleteUserInTx(trx, changes, user.id, id);
        await recordAudit(
          trx,
          { actorId: user.id, action: 'user.delete', target: id, details: { email: result.email, videos_deleted: result.deletedVideoIds.length } },
          changes.now,
        );
        changes.afterCommit(() => deleteMediaFiles(deps.media, result.fileKeys));
      });
      deps.liveStreams.endUser(id);
      return c.json({ ok: true as const }, 200);
    });
}
