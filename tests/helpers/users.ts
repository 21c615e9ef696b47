import { testHandle } from './test-handle';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppDeps } from '#server/context';
import type { Database } from '#db/schema';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  token: string;
}

export interface MemberOptions {
  id?: string;
  name?: string;
  email?: string;
  isAdmin?: boolean;
  isActive?: boolean;
  status?: 'active' | 'pending_payment';
  /** The account's times (created, verified); now by default. */
  at?: number;
}

/** A verified profile row (active unless told otherwise) written straight into `db`, on either engine. */
export async function insertMember(db: Kysely<Database>, opts: MemberOptions = {}): Promise<{ id: string; email: string; name: string }> {
  const id = opts.id ?? randomUUID();
  const now = opts.at ?? Date.now();
  const email = opts.email ?? `user-${id.slice(0, 8)}@example.test`;
  const name = opts.name ?? `User ${id.slice(0, 4)}`;
  await db
    .insertInto('profiles')
    .values({
      id,
      email,
      name,
      handle: testHandle(id),
      is_admin: opts.isAdmin ? 1 : 0,
      is_active: opts.isActive === false ? 0 : 1,
      account_status: opts.status ?? 'active',
      email_verified_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, email, name };
}

/**
 * A verified, active member (or admin) written straight into the database with an access token,
 * for tests that are not about sign-up itself. It has no password: use the HTTP sign-up flow
 * when a test needs to log in.
 */
export async function createUser(deps: AppDeps, opts: Omit<MemberOptions, 'id' | 'at'> = {}): Promise<TestUser> {
  const { id, email, name } = await insertMember(deps.db, { ...opts, at: deps.now() });
  const { token } = await deps.tokens.issue(id);
  return { id, email, name, token };
}
