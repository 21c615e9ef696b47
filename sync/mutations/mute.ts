import { MutationError } from '../protocol/error-codes';
import type { ArgKit } from './arg-kit';
import { defineMutation, type SampleFixture } from './define-mutation';
import type { MutationTx } from './mutation-tx';

// mute and unmute: the two wire names of one switch, defined together (like like.ts).

const aboutAMember = {
  args: (k: ArgKit) => k.z.strictObject({ userId: k.id }),
  refusedTitle: 'Mute not saved',
  pendingOnCard: false,
  resetsStores: ['mutes'],
  sample: ({ strangerId }: SampleFixture) => ({ userId: strangerId }),
} as const;

const edgeOf = (tx: MutationTx, userId: string) => ({ muter_id: tx.userId, muted_id: userId });

/**
 * Mutes a member: one-way and silent. Their videos leave the muter's feeds, their comments show
 * collapsed, their notifications to the muter are not written; they are not told and can still act.
 */
export const mute = defineMutation({
  name: 'mute',
  ...aboutAMember,
  run: async (tx, { userId }) => {
    if (userId === tx.userId) throw new MutationError('invalid', "You can't mute yourself.");
    const edge = edgeOf(tx, userId);
    if (await tx.mutes.get(edge)) return null;
    if ((await tx.mutes.insert(edge)) === false) return null;
    return { mutedId: userId };
  },
});

export const unmute = defineMutation({
  name: 'unmute',
  ...aboutAMember,
  refusedTitle: 'Unmute not saved',
  run: async (tx, { userId }) => {
    const edge = edgeOf(tx, userId);
    if (!(await tx.mutes.get(edge))) return null;
    if ((await tx.mutes.delete(edge)) === false) return null;
    return { mutedId: userId };
  },
});
