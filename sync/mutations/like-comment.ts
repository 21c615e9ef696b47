import { MutationError } from '../protocol/error-codes';
import type { ArgKit } from './arg-kit';
import { defineMutation, type SampleFixture } from './define-mutation';
import type { MutationTx } from './mutation-tx';

// likeComment and unlikeComment: the two wire names of one switch, defined together (like like.ts).

const aboutAComment = {
  args: (k: ArgKit) => k.z.strictObject({ commentId: k.id }),
  refusedTitle: 'Like not saved',
  pendingOnCard: false,
  // The comment's count and the member's flag live in its video's list: rebase resets the list.
  rewritesComments: true,
  sample: ({ commentId }: SampleFixture) => ({ commentId }),
} as const;

const keyOf = (tx: MutationTx, commentId: string) => ({ comment_id: commentId, user_id: tx.userId });

async function likeableComment(tx: MutationTx, commentId: string) {
  const comment = await tx.comments.get({ id: commentId });
  if (!comment || comment.deleted === 1) throw new MutationError('not_found', 'This comment was deleted.');
  return comment;
}

/**
 * One like per member and comment: likes_count moves only with a row really written, so replays,
 * a second device and thirty members at once count exactly. A deleted comment cannot be liked.
 * The count moves before the like is written and the comment is read again: on the server the
 * increment takes the comment's row, so a deletion at the same moment either waits for this like
 * (and takes it with the comment) or went first (and the second read refuses with `not_found`);
 * written first, the like's row failed its foreign key to the deleted comment (a 500).
 */
export const likeComment = defineMutation({
  name: 'likeComment',
  ...aboutAComment,
  run: async (tx, { commentId }) => {
    const comment = await likeableComment(tx, commentId);
    const key = keyOf(tx, commentId);
    if (await tx.comment_likes.get(key)) return null;
    await tx.comments.increment({ id: commentId }, 'likes_count', 1);
    await likeableComment(tx, commentId);
    // Written meanwhile by the member's other device: the count goes back.
    if ((await tx.comment_likes.insert({ ...key, video_id: comment.video_id })) === false) {
      await tx.comments.increment({ id: commentId }, 'likes_count', -1);
      return null;
    }
    return { comment };
  },
});

/** Taking a like back is always allowed (the like of a comment deleted since went with it). */
export const unlikeComment = defineMutation({
  name: 'unlikeComment',
  ...aboutAComment,
  run: async (tx, { commentId }) => {
    const key = keyOf(tx, commentId);
    if (!(await tx.comment_likes.get(key))) return null;
    // The comment's row first, as in likeComment: a deletion that takes the like with the comment then
    // waits or went first, instead of each holding the row the other needs (a deadlock).
    await tx.comments.increment({ id: commentId }, 'likes_count', -1);
    if ((await tx.comment_likes.delete(key)) === false) {
      await tx.comments.increment({ id: commentId }, 'likes_count', 1);
      return null;
    }
    return { commentId };
  },
});
