import { MutationError } from '../protocol/error-codes';
import type { ArgKit } from './arg-kit';
import { defineMutation, type SampleFixture } from './define-mutation';
import type { MutationTx } from './mutation-tx';
import { requireVideo } from './require-video';

// pinComment and unpinComment: the two wire names of one switch, defined together (like like.ts).

const aboutAComment = {
  args: (k: ArgKit) => k.z.strictObject({ commentId: k.id }),
  refusedTitle: 'Pin not saved',
  pendingOnCard: false,
  rewritesComments: true,
  sample: ({ commentId }: SampleFixture) => ({ commentId }),
} as const;

/** The comment and its video, if the acting member owns the video: only a video's owner pins. */
async function ownersComment(tx: MutationTx, commentId: string) {
  const comment = await tx.comments.get({ id: commentId });
  if (!comment || comment.deleted === 1) throw new MutationError('not_found', 'This comment was deleted.');
  const video = await requireVideo(tx, comment.video_id);
  if (video.user_id !== tx.userId) throw new MutationError('forbidden', "Only the video's creator can pin a comment.");
  return { comment, video };
}

/**
 * At most one pinned comment per video, shown first: the video names it (videos.pinned_comment_id),
 * so a new pin unpins the old one by the video's key. Only a top-level comment is pinned.
 */
export const pinComment = defineMutation({
  name: 'pinComment',
  ...aboutAComment,
  run: async (tx, { commentId }) => {
    const { comment, video } = await ownersComment(tx, commentId);
    if (comment.parent_id) throw new MutationError('invalid', 'Only a comment, not a reply, can be pinned.');
    if (comment.pinned === 1) return null;
    // The device's copy of the video may not know the pin (registry.ts, VideoRef): the server does.
    const previous = video.pinned_comment_id;
    // The video first: on PostgreSQL its row is then taken before the comments', the order a reply's
    // push takes them in (it locks its video at its start), so a pin and a reply never deadlock.
    await tx.videos.update({ id: video.id }, { pinned_comment_id: commentId });
    if (previous && previous !== commentId) await tx.comments.update({ id: previous }, { pinned: 0 });
    await tx.comments.update({ id: commentId }, { pinned: 1 });
    return { comment, video };
  },
});

export const unpinComment = defineMutation({
  name: 'unpinComment',
  ...aboutAComment,
  run: async (tx, { commentId }) => {
    const { comment, video } = await ownersComment(tx, commentId);
    if (comment.pinned !== 1) return null;
    // The video first, as in pinComment.
    await tx.videos.update({ id: video.id, pinned_comment_id: commentId }, { pinned_comment_id: null });
    await tx.comments.update({ id: commentId }, { pinned: 0 });
    return { comment, video };
  },
});
