import { isUniqueViolation } from '#db/errors';
import { HANDLE_TAKEN_MESSAGE } from '#sync/protocol/handles';
import { MutationError } from '#sync/protocol/error-codes';
import { MAX_FOLLOWING } from '#sync/protocol/limits';
import type { ServerMutationContext } from './context';

// The rules of setHandle and follow that only the server can apply: the device holds neither the
// other members' handles and accounts nor the whole count of whom its member follows.

export const FOLLOW_LIMIT_MESSAGE = `You can follow up to ${MAX_FOLLOWING.toLocaleString('en-US')} people.`;

/**
 * Two members who set one handle at once both pass the check (neither sees the other's uncommitted
 * row); the unique index profiles_handle then refuses the second. That is `handle_taken`, not a 500.
 */
export function handleRaceLost(err: unknown): unknown {
  if (!isUniqueViolation(err)) return err;
  const e = err as { constraint?: unknown; message?: unknown };
  const onHandle = e.constraint === 'profiles_handle' || (typeof e.message === 'string' && e.message.includes('profiles.handle'));
  return onHandle ? new MutationError('handle_taken', HANDLE_TAKEN_MESSAGE) : err;
}

/**
 * Before a follow's shared logic: the followee must be an active member, and the follower may follow
 * MAX_FOLLOWING at most (their own count, exact: a member's pushes run one at a time, db/locks.ts
 * lockMember). A follow that already exists is never refused: the shared logic answers it as a no-op.
 */
export async function checkFollow({ trx, user }: ServerMutationContext, followeeId: string): Promise<void> {
  // Following oneself is refused by the shared logic, in its words, on the device too.
  if (followeeId === user.id) return;
  const rows = await trx
    .selectFrom('profiles')
    .select(['id', 'is_active', 'account_status', 'following_count'])
    .where('id', 'in', [user.id, followeeId])
    .execute();
  const followee = rows.find((r) => r.id === followeeId);
  const active = followee !== undefined && Number(followee.is_active) === 1 && followee.account_status === 'active';
  const atLimit = Number(rows.find((r) => r.id === user.id)?.following_count ?? 0) >= MAX_FOLLOWING;
  if (active && !atLimit) return;
  const already = await trx
    .selectFrom('follows')
    .select('followee_id')
    .where('follower_id', '=', user.id)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
  if (already) return;
  if (!active) throw new MutationError('not_found', 'This member no longer exists.');
  throw new MutationError('limit', FOLLOW_LIMIT_MESSAGE);
}
