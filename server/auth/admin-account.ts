import { freeHandle } from '../people/free-handle';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { Changes } from '../changes/changes';
import { kyselySink } from '../changes/write-tx';
import { hashPassword, PASSWORD_PARAMS, type ScryptParams } from './password';
import { revokeAllRefreshTokens } from './refresh-tokens';

export interface AdminAccountInput {
  email: string;
  password: string;
  /** Kept as it is for an existing account when not given. */
  name: string | undefined;
}

export type AdminAccountResult = { action: 'created' | 'promoted'; id: string; email: string; name: string };

export const DEFAULT_ADMIN_NAME = 'Admin';

/**
 * Creates a verified, active administrator, or turns an existing account into one: admin, active,
 * verified, paid-up, with the given password. Existing sessions of that account end, since the
 * password changed under them.
 */
export async function upsertAdmin(
  db: Kysely<Database>,
  input: AdminAccountInput,
  now: number,
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<AdminAccountResult> {
  const passwordHash = await hashPassword(input.password, params);
  return db.transaction().execute(async (trx): Promise<AdminAccountResult> => {
    const existing = await trx.selectFrom('profiles').select(['id', 'name', 'email_verified_at']).where('email', '=', input.email).executeTakeFirst();
    if (!existing) {
      const id = randomUUID();
      const name = input.name ?? DEFAULT_ADMIN_NAME;
      await trx
        .insertInto('profiles')
        .values({
          id,
          email: input.email,
          name,
          handle: await freeHandle(trx, name),
          is_admin: 1,
          is_active: 1,
          account_status: 'active',
          email_verified_at: now,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx.insertInto('credentials').values({ user_id: id, password_hash: passwordHash, updated_at: now }).execute();
      return { action: 'created', id, email: input.email, name };
    }
    const name = input.name ?? existing.name;
    await trx
      .updateTable('profiles')
      .set({ name, is_admin: 1, is_active: 1, account_status: 'active', email_verified_at: existing.email_verified_at ?? now, updated_at: now })
      .where('id', '=', existing.id)
      .execute();
    await trx
      .insertInto('credentials')
      .values({ user_id: existing.id, password_hash: passwordHash, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: now }))
      .execute();
    await revokeAllRefreshTokens(trx, existing.id, now);
    const changes = new Changes(now).profile(existing.id, { shown: true });
    await changes.flush(kyselySink(trx));
    return { action: 'promoted', id: existing.id, email: input.email, name };
  });
}
