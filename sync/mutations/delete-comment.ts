import { MutationError } from '../protocol/error-codes';
import type { CommentRow, VideoRef } from '../entities/registry';
import { defineMutation } from './define-mutation';
import type { MutationTx } from './mutation-tx';

/** Who may delete a comment: its author, its video's owner, an admin (whose deletion of another's is audited). */
async function deleterRole(tx: MutationTx, comment: CommentRow, video: VideoRef | undefined): Promise<'author' | 'owner' | 'admin'> {
  if (comment.user_id === tx.userId) return 'author';
  if (video?.user_id === tx.userId) return 'owner';
  if (await tx.isAdmin()) return 'admin';
  throw new MutationError('forbidden', 'You can only delete your own comments or comments on your videos.');
}

/** A tombstone whose last reply went goes too: nothing is left to keep it for. */
async function dropEmptyTombstone(tx: MutationTx, topId: string): Promise<void> {
  await tx.comments.increment({ id: topId }, 'reply_count', -1);
  // Read after the increment took the row: the count then includes every reply committed before.
  const top = await tx.comments.get({ id: topId });
  if (top?.deleted === 1 && top.reply_count <= 0) await tx.comments.delete({ id: topId });
}

/**
 * Deletes a comment (docs/sync.md, "Mutations"). A comment with replies becomes a tombstone (its text
 * emptied, the replies stay); without replies the row goes. The tombstone is written first: on the
 * server that takes the row, so a reply written at the same moment is either seen by the check for
 * replies or refused with `parent_deleted` (add-comment.ts). Deleting a deleted comment is a no-op.
 */
export const deleteComment = defineMutation({
  name: 'deleteComment',
  args: (k) => k.z.strictObject({ commentId: k.id }),
  refusedTitle: 'Delete Failed',
  pendingOnCard: true,
  rewritesComments: true,
  sample: ({ commentId }) => ({ commentId }),
  run: async (tx, { commentId }) => {
    const comment = await tx.comments.get({ id: commentId });
    if (!comment || comment.deleted === 1) return null;
    const video = await tx.videos.get({ id: comment.video_id });
    const role = await deleterRole(tx, comment, video);
    // The video's count moves first: on PostgreSQL that takes the video's row before the comment's,
    // the order a reply's push takes them in (it locks its video at its start), so the two never deadlock.
    await tx.videos.increment({ id: comment.video_id }, 'comments_count', -1);
    // Another transaction deleted it first: the count goes back, nothing more to do.
    if ((await tx.comments.update({ id: commentId, deleted: 0 }, { deleted: 1, content: '', pinned: 0 })) === false) {
      await tx.videos.increment({ id: comment.video_id }, 'comments_count', 1);
      return null;
    }
    // Read after the tombstone took the row, so its count includes every reply committed before. The
    // count, not the rows: a device holds a thread's replies only once it was opened there.
    if (((await tx.comments.get({ id: commentId }))?.reply_count ?? 0) <= 0) await tx.comments.delete({ id: commentId });
    if (comment.parent_id) await dropEmptyTombstone(tx, comment.parent_id);
    if (comment.pinned === 1 && video) await tx.videos.update({ id: video.id }, { pinned_comment_id: null });
    return { comment, video, role };
  },
});
