import { MutationError } from '../protocol/error-codes';
import { defineMutation } from './define-mutation';

export const deleteVideo = defineMutation({
  name: 'deleteVideo',
  args: (k) => k.z.strictObject({ videoId: k.id }),
  refusedTitle: 'Delete Failed',
  pendingOnCard: true,
  rewritesComments: true,
  sample: ({ videoId }) => ({ videoId }),
  run: async (tx, { videoId }) => {
    // Already gone is what the caller wanted: no refusal, no effect.
    const video = await tx.videos.get({ id: videoId });
    if (!video) return null;
    if (video.user_id !== tx.userId && !(await tx.isAdmin())) {
      throw new MutationError('forbidden', 'You can only delete your own videos.');
    }
    await tx.videos.delete({ id: video.id });
    return { video };
  },
});
