import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { forbidden, unauthorized } from '../http/errors';

/**
 * Requires a valid access token of an active, verified, paid-up user; sets c.var.user.
 * The profile is read on every request so a suspension takes effect at once, not at token expiry.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/i.exec(header); // the scheme is case-insensitive (RFC 9110 11.1)
  if (!match?.[1]) throw unauthorized();
  const { deps } = c.var;
  const userId = await deps.tokens.verify(match[1]);
  if (!userId) throw unauthorized('Your session has expired. Please sign in again.', 'invalid_token');
  const profile = await deps.db
    .selectFrom('profiles')
    .select(['id', 'email', 'name', 'is_admin', 'is_active', 'account_status', 'email_verified_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!profile) throw unauthorized('Your session has expired. Please sign in again.', 'invalid_token');
  if (!profile.is_active) throw forbidden('Your account is suspended.', 'account_suspended');
  if (profile.account_status === 'pending_payment') throw forbidden('Complete the entry fee payment first.', 'payment_required');
  c.set('user', { id: profile.id, email: profile.email, name: profile.name, isAdmin: profile.is_admin === 1 });
  await next();
});

/** Requires requireUser first; refuses anyone who is not an administrator. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user.isAdmin) throw forbidden('You are not an administrator.', 'not_admin');
  await next();
});
