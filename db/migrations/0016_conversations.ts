import { sql, type Kysely } from 'kysely';
import { textType } from './portable';

// Conversations (docs/data-model.md, "Conversations"): replies, deleting, liking and pinning comments.
// - comments.parent_id: the top-level comment a reply is under (depth two: a reply to a reply is
//   attached to the top-level comment), null for a top-level one; reply_to_user_id: whom a reply
//   answers (shown as @handle).
// - comments.reply_count / likes_count: moved by the rows really written, in the same transaction.
// - comments.deleted: a tombstone (1) keeps a thread whose top comment was deleted; its text is
//   emptied. comments.pinned: the one comment its video's owner pinned (videos.pinned_comment_id
//   names it, so a new pin finds the old one by the video's key).
// - comment_likes: one per member and comment; video_id so a video's deletion takes them along.
// - notifications.comment_id: the comment a notification quotes, so its deletion takes them (a
//   deleted comment's words are kept nowhere).
// - comments_top and comments_thread: a video's top-level comments newest first, and a thread's
//   replies oldest first, each one index walk (the lists' reads in server/videos/).

export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('comments').addColumn('parent_id', text).execute();
  await db.schema.alterTable('comments').addColumn('reply_to_user_id', text).execute();
  for (const column of ['reply_count', 'likes_count', 'deleted', 'pinned']) {
    await db.schema
      .alterTable('comments')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.alterTable('videos').addColumn('pinned_comment_id', text).execute();
  await db.schema.alterTable('notifications').addColumn('comment_id', text).execute();

  await db.schema
    .createTable('comment_likes')
    .addColumn('comment_id', text, (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', text, (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('video_id', text, (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_likes_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_likes_user').on('comment_likes').columns(['user_id', 'comment_id']).execute();

  await db.schema.createIndex('comments_top').on('comments').columns(['video_id', 'created_at', 'id']).where(sql.ref('parent_id'), 'is', null).execute();
  await db.schema
    .createIndex('comments_thread')
    .on('comments')
    .columns(['parent_id', 'created_at', 'id'])
    .where(sql.ref('parent_id'), 'is not', null)
    .execute();
  await db.schema.createIndex('notifications_comment').on('notifications').column('comment_id').where(sql.ref('comment_id'), 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['notifications_comment', 'comments_thread', 'comments_top']) await db.schema.dropIndex(index).execute();
  await db.schema.dropTable('comment_likes').execute();
  await db.schema.alterTable('notifications').dropColumn('comment_id').execute();
  await db.schema.alterTable('videos').dropColumn('pinned_comment_id').execute();
  for (const column of ['pinned', 'deleted', 'likes_count', 'reply_count', 'reply_to_user_id', 'parent_id']) {
    await db.schema.alterTable('comments').dropColumn(column).execute();
  }
}
