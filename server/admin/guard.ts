import { requireAdmin, requireUser } from '../auth/middleware';
import { bearerSecurity } from '../http/openapi-helpers';

/** Spread into every /api/admin operation: signed in (active, paid) and an administrator. */
export const adminOnly = {
  tags: ['admin'],
  security: bearerSecurity,
  middleware: [requireUser, requireAdmin],
};
