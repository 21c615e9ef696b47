import { randomUUID } from 'node:crypto';
import type { AppDeps } from '#server/context';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  token: string;
}

/**
 * A verified, active member (or admin) written straight into the database with an access token,
 * for tests that are not about sign-up itself. It has no password: use the HTTP sign-up flow
 * when a test needs to log in.
 */
export async function createUser(
  deps: AppDeps,
  opts: { name?: string; email?: string; isAdmin?: boolean; isActive?: boolean; status?: 'active' | 'pending_payment' } = {},
): Promise<TestUser> {
  const id = randomUUID();
  const now = deps.now();
  const email = opts.email ?? `user-${id.slice(0, 8)}@example.test`;
  const name = opts.name ?? `User ${id.slice(0, 4)}`;
  await deps.db
    .insertInto('profiles')
    .values({
      id,
      email,
      name,
      is_admin: opts.isAdmin ? 1 : 0,
      is_active: opts.isActive === false ? 0 : 1,
      account_status: opts.status ?? 'active',
      email_verified_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const { token } = await deps.tokens.issue(id);
  return { id, email, name, token };
}
