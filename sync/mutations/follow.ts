import { MutationError } from '../protocol/error-codes';
import type { ArgKit } from './arg-kit';
import { defineMutation, type SampleFixture } from './define-mutation';
import type { MutationTx } from './mutation-tx';

// follow and unfollow: the two wire names of one switch, defined together (like like.ts).

const aboutAMember = {
  args: (k: ArgKit) => k.z.strictObject({ userId: k.id }),
  refusedTitle: 'Follow not saved',
  pendingOnCard: false,
  // The member's following count moves with it, and the device's follows: rebase resets both.
  changesProfile: true,
  resetsStores: ['follows'],
  sample: ({ ownerId }: SampleFixture) => ({ userId: ownerId }),
} as const;

function edgeOf(tx: MutationTx, userId: string) {
  return { follower_id: tx.userId, followee_id: userId };
}

/**
 * Both counters, in member id order: two members following each other at once would otherwise
 * lock their two profile rows crosswise (PostgreSQL would undo one push after a second).
 */
async function moveCounts(tx: MutationTx, followeeId: string, by: 1 | -1, followerId = tx.userId): Promise<void> {
  const moves = [
    { id: followeeId, counter: 'followers_count' as const },
    { id: followerId, counter: 'following_count' as const },
  ].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const m of moves) await tx.profiles.increment({ id: m.id }, m.counter, by);
}

/**
 * The server also refuses a followee who is not an active member (`not_found`) and a member who
 * already follows MAX_FOLLOWING people (`limit`): the device holds neither fact
 * (server/sync/mutations/people-rules.ts). The counters move only when the row really changed, so
 * a replay, a second device's follow or two at once count once.
 */
/**
 * Removes one follow edge and moves both counts, only if the row was really there (a block takes
 * both directions: the device holds only its member's own edges, so the other one is the server's).
 */
export async function dropFollow(tx: MutationTx, followerId: string, followeeId: string): Promise<boolean> {
  const edge = { follower_id: followerId, followee_id: followeeId };
  if (!(await tx.follows.get(edge))) return false;
  if ((await tx.follows.delete(edge)) === false) return false;
  await moveCounts(tx, followeeId, -1, followerId);
  return true;
}

export const follow = defineMutation({
  name: 'follow',
  ...aboutAMember,
  run: async (tx, { userId }) => {
    if (userId === tx.userId) throw new MutationError('invalid', "You can't follow yourself.");
    const edge = edgeOf(tx, userId);
    if (await tx.follows.get(edge)) return null;
    if ((await tx.follows.insert(edge)) === false) return null;
    await moveCounts(tx, userId, 1);
    return { followeeId: userId };
  },
});

export const unfollow = defineMutation({
  name: 'unfollow',
  ...aboutAMember,
  run: async (tx, { userId }) => {
    const edge = edgeOf(tx, userId);
    const existing = await tx.follows.get(edge);
    if (!existing) return null;
    if ((await tx.follows.delete(edge)) === false) return null;
    await moveCounts(tx, userId, -1);
    // When it was followed: the follow's notification is found by that day (server/notifications/follow.ts).
    return { followeeId: userId, followedAt: existing.created_at };
  },
});
