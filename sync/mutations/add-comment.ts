import { MutationError } from '../protocol/error-codes';
import { defineMutation } from './define-mutation';
import type { MutationTx } from './mutation-tx';
import { requireShownVideo } from './require-video';

/** A comment id already used: this member's same comment is a replay (no effect), anything else a conflict. */
function replayOrConflict(tx: MutationTx, existing: { video_id: string; user_id: string } | undefined, videoId: string): null {
  if (existing?.user_id === tx.userId && existing.video_id === videoId) return null;
  throw new MutationError('conflict', 'That comment id is already taken.');
}

export const addComment = defineMutation({
  name: 'addComment',
  args: (k) => k.z.strictObject({ commentId: k.id, videoId: k.id, content: k.commentContent }),
  refusedTitle: 'Comment Failed',
  pendingOnCard: true,
  pendingComment: (args) => args.commentId,
  rewritesComments: true,
  sample: ({ videoId, id }) => ({ commentId: id('comment'), videoId, content: 'A sample comment' }),
  run: async (tx, { commentId, videoId, content }) => {
    const existing = await tx.comments.get({ id: commentId });
    if (existing) return replayOrConflict(tx, existing, videoId);
    const video = await requireShownVideo(tx, videoId);
    // Taken meanwhile by another transaction: the counter stays, as for a replay.
    if ((await tx.comments.insert({ id: commentId, video_id: videoId, user_id: tx.userId, content })) === false) {
      return replayOrConflict(tx, await tx.comments.get({ id: commentId }), videoId);
    }
    await tx.videos.increment({ id: videoId }, 'comments_count', 1);
    return { video, commentId };
  },
});
