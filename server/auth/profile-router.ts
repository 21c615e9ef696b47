import { createRoute } from '@hono/zod-openapi';
import { ProfileUpdateBody, PublicUser } from '#sync/rest-api/auth';
import { errorResponses, bearerSecurity } from '../http/openapi-helpers';
import { createRouter } from '../http/router';
import { writeTx } from '../changes/write-tx';
import { requireUser } from './middleware';
import { toPublicUser } from './session-answer';

const getProfileRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['profile'],
  summary: 'The signed-in user’s own profile',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  responses: {
    200: { description: 'The profile.', content: { 'application/json': { schema: PublicUser } } },
    ...errorResponses(401, 403),
  },
});

const updateProfileRoute = createRoute({
  method: 'patch',
  path: '/',
  tags: ['profile'],
  summary: 'Change the signed-in user’s name (the e-mail address cannot be changed)',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { body: { required: true, content: { 'application/json': { schema: ProfileUpdateBody } } } },
  responses: {
    200: { description: 'The updated profile.', content: { 'application/json': { schema: PublicUser } } },
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

/** /api/profile: read and rename one's own profile. */
export function profileRouter() {
  const app = createRouter();

  app.openapi(getProfileRoute, async (c) => {
    const profile = await c.var.deps.db.selectFrom('profiles').selectAll().where('id', '=', c.var.user.id).executeTakeFirstOrThrow();
    return c.json(toPublicUser(profile), 200);
  });

  app.openapi(updateProfileRoute, async (c) => {
    const { deps, user } = c.var;
    const { name } = c.req.valid('json');
    // The name shows on the member's cards and comments on every device: the same change as the sync rename.
    const profile = await writeTx(
      deps,
      async (trx, changes) => {
        await trx.updateTable('profiles').set({ name, updated_at: changes.now }).where('id', '=', user.id).execute();
        changes.profile(user.id, { shown: true });
        return trx.selectFrom('profiles').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      },
      { origin: user.id },
    );
    return c.json(toPublicUser(profile), 200);
  });

  return app;
}
