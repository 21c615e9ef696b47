import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { forbidden, unauthorized } from '../http/errors';
import { userOfAccessToken } from './token-user';

/** Requires a valid access token of an open session of an active, verified, paid-up user; sets c.var.user. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/i.exec(header); // the scheme is case-insensitive (RFC 9110 11.1)
  if (!match?.[1]) throw unauthorized();
  c.set('user', await userOfAccessToken(c.var.deps, match[1]));
  await next();
});

/** Requires requireUser first; refuses anyone who is not an administrator. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user.isAdmin) throw forbidden('You are not an administrator.', 'not_admin');
  await next();
});
