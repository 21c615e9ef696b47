import { MutationError } from '../protocol/error-codes';
import { defineMutation } from './define-mutation';
import { requireVideo } from './require-video';

export const addComment = defineMutation({
  name: 'addComment',
  args: (k) => k.z.strictObject({ commentId: k.id, videoId: k.id, content: k.commentContent }),
  refusedTitle: 'Comment Failed',
  pendingOnCard: true,
  pendingComment: (args) => args.commentId,
  rewritesComments: true,
  run: async (tx, { commentId, videoId, content }) => {
    const existing = await tx.comments.get(commentId);
    if (existing) {
      if (existing.user_id === tx.userId && existing.video_id === videoId) return null;
      throw new MutationError('conflict', 'That comment id is already taken.');
    }
    const video = await requireVideo(tx, videoId);
    await tx.comments.insert({ id: commentId, videoId, userId: tx.userId, content });
    await tx.videos.increment(videoId, 'comments_count', 1);
    return { video, commentId };
  },
});
