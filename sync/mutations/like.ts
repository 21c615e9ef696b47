import { defineMutation } from './define-mutation';
import { requireVideo } from './require-video';

export const like = defineMutation({
  name: 'like',
  args: (k) => k.z.strictObject({ videoId: k.id }),
  refusedTitle: 'Like not saved',
  pendingOnCard: true,
  run: async (tx, { videoId }) => {
    const video = await requireVideo(tx, videoId);
    const key = { videoId, userId: tx.userId };
    if (await tx.likes.get(key)) return null;
    await tx.likes.insert(key);
    await tx.videos.increment(videoId, 'likes_count', 1);
    return { video };
  },
});
