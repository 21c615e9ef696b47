import { defineMutation } from './define-mutation';
import { requireVideo } from './require-video';

export const unlike = defineMutation({
  name: 'unlike',
  args: (k) => k.z.strictObject({ videoId: k.id }),
  refusedTitle: 'Like not saved',
  pendingOnCard: true,
  run: async (tx, { videoId }) => {
    const video = await requireVideo(tx, videoId);
    const key = { videoId, userId: tx.userId };
    const existing = await tx.likes.get(key);
    if (!existing) return null;
    await tx.likes.delete(key);
    await tx.videos.increment(videoId, 'likes_count', -1);
    return { video, likedAt: existing.created_at };
  },
});
