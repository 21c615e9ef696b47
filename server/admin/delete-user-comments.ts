import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { comments as commentEntity, type CommentRow } from '#sync/entities/registry';
import { deleteNotificationsOfCommentsBy } from '../notifications/comments';
import type { Changes } from '../changes/changes';

// A deleted account's comments and comment likes (server/admin/delete-user.ts), by deleteComment's
// rules (sync/mutations/delete-comment.ts), each step one statement whatever the number of rows:
// - the comments they liked lose that like;
// - the notifications quoting their comments go (their words are kept nowhere);
// - comments_count of each video loses their comments that were not tombstones, and each thread's
//   reply_count their replies in it;
// - a top-level comment of theirs with another member's reply becomes a tombstone. comments.user_id
//   must name a member (ON DELETE CASCADE would take the tombstone and leave the replies without
//   their thread), so the tombstone is kept under the video's owner: a tombstone shows no author;
// - a tombstone left without replies goes, then every other comment of theirs.
// The leaderboards were settled before (onUserDeleted); tombstones and replies count for none.

type Trx = Transaction<Database>;
type Ref = { id: string; video_id: string; user_id: string };

/** A change declaration needs only the comment's key, video and author. */
const declared = (r: Ref): CommentRow => ({ ...r, content: '', created_at: 0, parent_id: null, reply_to_user_id: null, deleted: 1, pinned: 0, reply_count: 0 });

/** The member's likes of comments go, and the liked comments' likes_count with them. */
async function removeCommentLikes(trx: Trx, changes: Changes, userId: string): Promise<void> {
  const rows = await trx
    .updateTable('comments')
    .set((eb) => ({ likes_count: eb('likes_count', '-', 1) }))
    .where('id', 'in', (eb) => eb.selectFrom('comment_likes').select('comment_id').where('user_id', '=', userId))
    .returning(['id', 'video_id', 'user_id'])
    .execute();
  await trx.deleteFrom('comment_likes').where('user_id', '=', userId).execute();
  for (const r of rows) changes.row(commentEntity, declared(r));
}

/** Each video's comments_count and each thread's reply_count lose the member's comments in them. */
async function takeCounts(trx: Trx, changes: Changes, userId: string): Promise<Set<string>> {
  const videos = await trx
    .updateTable('videos')
    .set((eb) => ({
      comments_count: eb(
        'comments_count',
        '-',
        eb
          .selectFrom('comments as c')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('c.video_id', '=', 'videos.id')
          .where('c.user_id', '=', userId)
          .where('c.deleted', '=', 0),
      ),
    }))
    .where('id', 'in', (eb) => eb.selectFrom('comments').select('video_id').where('user_id', '=', userId).where('deleted', '=', 0))
    .returning('id')
    .execute();
  const threads = await trx
    .updateTable('comments')
    .set((eb) => ({
      reply_count: eb(
        'reply_count',
        '-',
        eb
          .selectFrom('comments as r')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('r.parent_id', '=', 'comments.id')
          .where('r.user_id', '=', userId),
      ),
    }))
    .where('id', 'in', (eb) => eb.selectFrom('comments as m').select('m.parent_id').where('m.user_id', '=', userId).where('m.parent_id', 'is not', null))
    .returning(['id', 'video_id', 'user_id'])
    .execute();
  for (const r of threads) changes.row(commentEntity, declared(r));
  return new Set(videos.map((v) => v.id));
}

/** The member's top-level comments that others replied to become tombstones, kept under the video's owner. */
async function tombstone(trx: Trx, changes: Changes, userId: string): Promise<void> {
  const rows = await trx
    .updateTable('comments')
    .set((eb) => ({
      deleted: 1,
      content: '',
      pinned: 0,
      user_id: eb.selectFrom('videos as v').select('v.user_id').whereRef('v.id', '=', 'comments.video_id'),
    }))
    .where('user_id', '=', userId)
    .where('parent_id', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('comments as r').select('r.id').whereRef('r.parent_id', '=', 'comments.id').where('r.user_id', '<>', userId)),
    )
    .returning(['id', 'video_id', 'user_id'])
    .execute();
  for (const r of rows) changes.row(commentEntity, declared(r));
}

/** Others' tombstones whose only replies were the member's go, then every comment of the member. */
async function removeRows(trx: Trx, changes: Changes, userId: string): Promise<void> {
  const emptied = await trx
    .deleteFrom('comments')
    .where('deleted', '=', 1)
    .where('user_id', '<>', userId)
    .where('id', 'in', (eb) => eb.selectFrom('comments as m').select('m.parent_id').where('m.user_id', '=', userId).where('m.parent_id', 'is not', null))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('comments as r').select('r.id').whereRef('r.parent_id', '=', 'comments.id').where('r.user_id', '<>', userId))),
    )
    .returning(['id', 'video_id', 'user_id'])
    .execute();
  const own = await trx.deleteFrom('comments').where('user_id', '=', userId).returning(['id', 'video_id', 'user_id']).execute();
  for (const r of [...emptied, ...own]) changes.row(commentEntity, declared(r), { deleted: true });
}

/**
 * Call after the member's own videos went (their comments left are on others' videos), in the
 * account deletion's transaction. Answers the videos whose counts changed.
 */
export async function removeCommentsOf(trx: Trx, changes: Changes, userId: string): Promise<Set<string>> {
  await removeCommentLikes(trx, changes, userId);
  await deleteNotificationsOfCommentsBy(trx, changes, userId);
  const touched = await takeCounts(trx, changes, userId);
  const pins = await trx
    .updateTable('videos')
    .set({ pinned_comment_id: null })
    .where('id', 'in', (eb) => eb.selectFrom('comments').select('video_id').where('user_id', '=', userId).where('pinned', '=', 1))
    .returning('id')
    .execute();
  for (const v of pins) touched.add(v.id);
  await tombstone(trx, changes, userId);
  await removeRows(trx, changes, userId);
  return touched;
}
