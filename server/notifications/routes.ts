import type { z } from '@hono/zod-openapi';
import { createRoute } from '@hono/zod-openapi';
import {
  NotificationPrefs,
  NotificationPrefsPatch,
  PushKeyAnswer,
  PushSubscriptionAnswer,
  PushSubscriptionBody,
  PushUnsubscribeBody,
} from '#sync/rest-api/notifications';
import { errorResponses, bearerSecurity } from '../http/openapi-helpers';
import { createRouter } from '../http/router';
import { ApiError, badRequest } from '../http/errors';
import { requireUser } from '../auth/middleware';
import { endpointPolicy, endpointProblem, endpointSyntaxProblem } from './endpoint-check';
import { deleteSubscription, readPrefs, saveSubscription, writePrefs } from './subscriptions';
import { vapidKeysOf } from './vapid-keys';

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

const keyRoute = createRoute({
  method: 'get',
  path: '/key',
  tags: ['notifications'],
  summary: 'The VAPID public key (base64url) a browser subscribes to push with',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  responses: { 200: { description: 'The public key.', content: json(PushKeyAnswer) }, ...errorResponses(401, 403, 503) },
});

const subscribeRoute = createRoute({
  method: 'post',
  path: '/subscriptions',
  tags: ['notifications'],
  summary: "Register this device's push subscription (PushSubscription.toJSON()); the same endpoint again updates it",
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { body: { required: true, content: json(PushSubscriptionBody) } },
  responses: {
    201: { description: 'Registered (or refreshed).', content: json(PushSubscriptionAnswer) },
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

const unsubscribeRoute = createRoute({
  method: 'delete',
  path: '/subscriptions',
  tags: ['notifications'],
  summary: 'This device stops receiving pushes (only a subscription of the caller goes)',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { body: { required: true, content: json(PushUnsubscribeBody) } },
  responses: { 204: { description: 'Gone, or it was not the caller’s (nothing changed).' }, ...errorResponses(400, 401, 403, 413, 415) },
});

const prefsRoute = createRoute({
  method: 'get',
  path: '/preferences',
  tags: ['notifications'],
  summary: 'Which kinds of notification are pushed to the caller’s devices',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  responses: { 200: { description: 'The choices (all on until changed).', content: json(NotificationPrefs) }, ...errorResponses(401, 403) },
});

const putPrefsRoute = createRoute({
  method: 'put',
  path: '/preferences',
  tags: ['notifications'],
  summary: 'Change some of the caller’s choices (any subset)',
  security: bearerSecurity,
  middleware: [requireUser] as const,
  request: { body: { required: true, content: json(NotificationPrefsPatch) } },
  responses: { 200: { description: 'All the choices, as now stored.', content: json(NotificationPrefs) }, ...errorResponses(400, 401, 403, 413, 415) },
});

/** /api/push: the VAPID key and this device's subscription. */
export function pushRouter() {
  const app = createRouter();
  app.openapi(keyRoute, async (c) => {
    const { deps } = c.var;
    // A pair this SECRETS_KEY cannot open is the operator's to fix (docs/operations.md); the
    // member is told push is unavailable, not shown a server error.
    const keys = await vapidKeysOf(deps.db, deps.secrets, deps.now).catch((err: unknown) => {
      deps.log.error(`push: ${err instanceof Error ? err.message : String(err)}`);
      throw new ApiError(503, 'push_unavailable', 'Notifications are not available right now. Please try again later.');
    });
    return c.json({ public_key: keys.publicKey }, 200);
  });
  app.openapi(subscribeRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    const problem = endpointProblem(body.endpoint, endpointPolicy(deps.config.push));
    if (problem) throw badRequest(problem, 'invalid_endpoint');
    const id = await saveSubscription(deps.db, { userId: user.id, sessionId: user.sessionId }, body, deps.now());
    return c.json({ id }, 201);
  });
  app.openapi(unsubscribeRoute, async (c) => {
    const { deps, user } = c.var;
    const { endpoint } = c.req.valid('json');
    const problem = endpointSyntaxProblem(endpoint);
    if (problem) throw badRequest(problem, 'invalid_endpoint');
    await deleteSubscription(deps.db, user.id, endpoint);
    return c.body(null, 204);
  });
  return app;
}

/** /api/notifications: the caller's choices of what is pushed. */
export function notificationsRouter() {
  const app = createRouter();
  app.openapi(prefsRoute, async (c) => c.json(await readPrefs(c.var.deps.db, c.var.user.id), 200));
  app.openapi(putPrefsRoute, async (c) => {
    const { deps, user } = c.var;
    return c.json(await writePrefs(deps.db, user.id, c.req.valid('json'), deps.now()), 200);
  });
  return app;
}
