import { MutationError } from '../protocol/error-codes';
import type { ArgKit } from './arg-kit';
import { defineMutation, type SampleFixture } from './define-mutation';
import { dropFollow } from './follow';
import type { MutationTx } from './mutation-tx';

// block and unblock: the two wire names of one switch, defined together (like like.ts). The rules
// only the server can apply (the member exists, is not an admin) are server/sync/mutations/safety-rules.ts.

const aboutAMember = {
  args: (k: ArgKit) => k.z.strictObject({ userId: k.id }),
  refusedTitle: 'Block not saved',
  pendingOnCard: false,
  // The counts of a dropped follow, and the device's follows and blocks: rebase resets them.
  changesProfile: true,
  resetsStores: ['follows', 'blocks'],
  sample: ({ strangerId }: SampleFixture) => ({ userId: strangerId }),
} as const;

const edgeOf = (tx: MutationTx, userId: string) => ({ blocker_id: tx.userId, blocked_id: userId });

/**
 * Blocks a member: two-way in effect (docs/decisions/0024-safety.md). Both follow edges go with
 * exact counts; on the device the blocked member's cached videos, comments and notifications go in
 * the same transaction (the entity's `purges`). A replay or a second block changes nothing.
 */
export const block = defineMutation({
  name: 'block',
  ...aboutAMember,
  run: async (tx, { userId }) => {
    if (userId === tx.userId) throw new MutationError('invalid', "You can't block yourself.");
    const edge = edgeOf(tx, userId);
    if (await tx.blocks.get(edge)) return null;
    if ((await tx.blocks.insert(edge)) === false) return null;
    const unfollowed = await dropFollow(tx, tx.userId, userId);
    const unfollowedBy = await dropFollow(tx, userId, tx.userId);
    return { blockedId: userId, unfollowed, unfollowedBy };
  },
});

/** Lifts a block; the follows it took stay gone. */
export const unblock = defineMutation({
  name: 'unblock',
  ...aboutAMember,
  refusedTitle: 'Unblock not saved',
  run: async (tx, { userId }) => {
    const edge = edgeOf(tx, userId);
    if (!(await tx.blocks.get(edge))) return null;
    if ((await tx.blocks.delete(edge)) === false) return null;
    return { blockedId: userId };
  },
});
