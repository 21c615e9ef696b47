import { MutationError } from '../protocol/error-codes';
import { defineMutation } from './define-mutation';
import { requireVideo } from './require-video';

export const recordShare = defineMutation({
  name: 'recordShare',
  args: (k) => k.z.strictObject({ shareId: k.id, videoId: k.id }),
  refusedTitle: 'Share not saved',
  pendingOnCard: true,
  run: async (tx, { shareId, videoId }) => {
    const existing = await tx.shares.get(shareId);
    if (existing) {
      if (existing.user_id === tx.userId && existing.video_id === videoId) return null;
      throw new MutationError('conflict', 'That share id is already taken.');
    }
    const video = await requireVideo(tx, videoId);
    const key = { videoId, userId: tx.userId };
    // The count counts members: every share is stored (its id makes replays harmless), only a member's first moves it.
    const sharedBefore = await tx.shares.anyBy(key);
    await tx.shares.insert({ id: shareId, ...key });
    if (!sharedBefore) await tx.videos.increment(videoId, 'shares_count', 1);
    return { video };
  },
});
