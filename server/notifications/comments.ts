import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { notifications } from '#sync/entities/registry';
import type { Changes } from '../changes/changes';
import { commentExcerpt, derivedNotificationId, dueNow } from './create';
import { mentionedMembers } from './mentions';
import { quietMembers } from './quiet-members';

// What a new comment tells, and what its deletion takes back (docs/notifications.md, "comment",
// "reply", "mention"). Every row names its comment (comment_id): a deleted comment's words are kept
// nowhere (docs/decisions/0023-conversations.md).

type Trx = Transaction<Database>;
type WordsKind = 'comment' | 'reply' | 'mention';

export interface AddedComment {
  videoId: string;
  /** The video's owner. */
  ownerId: string;
  commentId: string;
  authorId: string;
  authorName: string;
  content: string;
  /** Whom a reply answers; null for a top-level comment. */
  replyToUserId: string | null;
}

/**
 * Who hears of a comment, each member once, by the most specific reason: the one replied to
 * ("replied to your comment"), else a member it mentions ("mentioned you in a comment"), else the
 * video's owner ("commented on your video"). Never its author, nor a member who muted or blocked
 * them or whom they blocked.
 */
async function audience(trx: Trx, c: AddedComment): Promise<Map<string, WordsKind>> {
  const told = new Map<string, WordsKind>();
  if (c.replyToUserId) told.set(c.replyToUserId, 'reply');
  for (const id of await mentionedMembers(trx, c.content)) if (!told.has(id)) told.set(id, 'mention');
  if (!told.has(c.ownerId)) told.set(c.ownerId, 'comment');
  told.delete(c.authorId);
  for (const id of await quietMembers(trx, c.authorId, [...told.keys()])) told.delete(id);
  return told;
}

/** A comment (top-level or reply) was written: its audience told in one statement, pushed at once. */
export async function notifyCommentAdded(trx: Trx, changes: Changes, c: AddedComment): Promise<void> {
  const told = await audience(trx, c);
  if (!told.size) return;
  const now = changes.now;
  const detail = commentExcerpt(c.content);
  const rows = [...told].map(([userId, kind]) => ({
    id: derivedNotificationId(kind, `${c.commentId}:${userId}`),
    user_id: userId,
    kind,
    video_id: c.videoId,
    comment_id: c.commentId,
    count: 1,
    actor_name: c.authorName,
    actor_id: c.authorId,
    detail,
    created_at: now,
    updated_at: now,
    push_due_at: now,
  }));
  await trx
    .insertInto('notifications')
    .values(rows)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  for (const r of rows) changes.row(notifications, { id: r.id, user_id: r.user_id, read_at: null });
  dueNow(changes);
}

/** The notifications quoting a deleted comment go, and the devices drop them. */
export async function deleteNotificationsOfComment(trx: Trx, changes: Changes, commentId: string): Promise<void> {
  const gone = await trx.deleteFrom('notifications').where('comment_id', '=', commentId).returning(['id', 'user_id']).execute();
  for (const n of gone) changes.row(notifications, { id: n.id, user_id: n.user_id, read_at: null }, { deleted: true });
}

/** Every notification quoting one of a member's comments (their account's deletion): one statement. */
export async function deleteNotificationsOfCommentsBy(trx: Trx, changes: Changes, authorId: string): Promise<void> {
  const gone = await trx
    .deleteFrom('notifications')
    .where('comment_id', 'in', (eb) => eb.selectFrom('comments').select('id').where('user_id', '=', authorId))
    .returning(['id', 'user_id'])
    .execute();
  for (const n of gone) changes.row(notifications, { id: n.id, user_id: n.user_id, read_at: null }, { deleted: true });
}
