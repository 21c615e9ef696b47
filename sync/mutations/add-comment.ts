import { MutationError } from '../protocol/error-codes';
import type { CommentRow } from '../entities/registry';
import { defineMutation } from './define-mutation';
import type { MutationTx } from './mutation-tx';
import { requireShownVideo } from './require-video';

/** A comment id already used: this member's same comment is a replay (no effect), anything else a conflict. */
function replayOrConflict(tx: MutationTx, existing: { video_id: string; user_id: string } | undefined, videoId: string): null {
  if (existing?.user_id === tx.userId && existing.video_id === videoId) return null;
  throw new MutationError('conflict', 'That comment id is already taken.');
}

export const PARENT_DELETED_MESSAGE = 'The comment you replied to was deleted.';

/** The comment replied to and its thread's top-level comment, if both still stand (a tombstone top keeps its thread). */
async function replyTarget(tx: MutationTx, parentId: string, videoId: string) {
  const parent = await tx.comments.get({ id: parentId });
  if (parent && parent.video_id !== videoId) throw new MutationError('invalid', 'That comment is on another video.');
  const top = parent?.parent_id ? await tx.comments.get({ id: parent.parent_id }) : parent;
  if (!parent || parent.deleted === 1 || !top) throw new MutationError('parent_deleted', PARENT_DELETED_MESSAGE);
  return { parent, top };
}

/**
 * Where a reply goes: threads are two deep, so a reply to a reply joins its top-level comment and
 * keeps whom it answered. The top's reply_count moves before the reply is written and the two are
 * read again after: on the server the increment takes the top's row, so a deletion at the same
 * moment either sees this reply (and leaves a tombstone) or went first (and the second read refuses
 * with `parent_deleted`, which undoes the count).
 */
async function threadOf(tx: MutationTx, parentId: string, videoId: string): Promise<Pick<CommentRow, 'parent_id' | 'reply_to_user_id'>> {
  const { top } = await replyTarget(tx, parentId, videoId);
  await tx.comments.increment({ id: top.id }, 'reply_count', 1);
  const { parent } = await replyTarget(tx, parentId, videoId);
  return { parent_id: top.id, reply_to_user_id: parent.user_id };
}

export const addComment = defineMutation({
  name: 'addComment',
  args: (k) => k.z.strictObject({ commentId: k.id, videoId: k.id, content: k.commentContent, parentId: k.id.optional() }),
  refusedTitle: 'Comment Failed',
  pendingOnCard: true,
  pendingComment: (args) => args.commentId,
  rewritesComments: true,
  sample: ({ videoId, id }) => ({ commentId: id('comment'), videoId, content: 'A sample comment' }),
  run: async (tx, { commentId, videoId, content, parentId }) => {
    const existing = await tx.comments.get({ id: commentId });
    if (existing) return replayOrConflict(tx, existing, videoId);
    const video = await requireShownVideo(tx, videoId);
    const thread = parentId ? await threadOf(tx, parentId, videoId) : { parent_id: null, reply_to_user_id: null };
    const row = { id: commentId, video_id: videoId, user_id: tx.userId, content, ...thread, deleted: 0, pinned: 0, reply_count: 0 };
    // Taken meanwhile by another transaction: the counters stay, as for a replay.
    if ((await tx.comments.insert(row)) === false) {
      // The thread's count moved above for a row that was not written: it goes back.
      if (thread.parent_id) await tx.comments.increment({ id: thread.parent_id }, 'reply_count', -1);
      return replayOrConflict(tx, await tx.comments.get({ id: commentId }), videoId);
    }
    await tx.videos.increment({ id: videoId }, 'comments_count', 1);
    return { video, commentId, parentId: thread.parent_id, replyToUserId: thread.reply_to_user_id };
  },
});
