import { MutationError } from '../protocol/error-codes';
import { defineMutation } from './define-mutation';

/**
 * Reports a video, a comment or a member to the admins (docs/moderation.md). The device shows
 * nothing for it; everything is the server's (server/sync/mutations/effects.ts): the target must
 * still exist (`not_found`, told without a toast), at most MAX_REPORTS_PER_DAY a day (`limit`), one
 * open report per reporter and target (a second is a no-op), and the evidence kept as it was.
 */
export const report = defineMutation({
  name: 'report',
  args: (k) => k.z.strictObject({ reportId: k.id, targetType: k.reportTarget, targetId: k.id, reason: k.reportReason, note: k.reportNote }),
  refusedTitle: 'Report not sent',
  quietRefusals: ['not_found'],
  pendingOnCard: false,
  sample: ({ videoId, id }) => ({ reportId: id('report'), targetType: 'video' as const, targetId: videoId, reason: 'spam' as const }),
  run: async (tx, args) => {
    if (args.targetType === 'member' && args.targetId === tx.userId) throw new MutationError('invalid', "You can't report yourself.");
    return args;
  },
});
