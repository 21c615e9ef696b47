import { notifications } from '#sync/entities/registry';
import { createHash, randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import type { Changes } from '../changes/changes';
import { likeBatchMs } from './like-batch';
import { wakePushSenders } from './wake';

// Notifications are written in the transaction of what caused them (docs/notifications.md), each
// declared with changes.row(notifications, …) so the member's devices pull it.

type Trx = Transaction<Database>;

/** The comment's opening words kept in a notification: enough for a line on a lock screen. */
const COMMENT_EXCERPT = 100;

/**
 * An id made from what the notification is about, for the kinds that exist once per thing (the
 * likes of a video, its processing): a retried job or a second like then finds the same row.
 * Base64url of a hash: fits IdSchema (sync/protocol/ids.ts) whatever the video id's length.
 */
export function derivedNotificationId(kind: string, key: string): string {
  return createHash('sha256').update(`${kind}:${key}`).digest('base64url').slice(0, 32);
}

/** After the commit, the senders look at once (a push due now should not wait for the next tick). */
function dueNow(changes: Changes): void {
  changes.afterCommit(wakePushSenders);
}

interface LikeNote {
  videoId: string;
  ownerId: string;
  likerName: string;
  /** Likes of this push on the video (a like, unlike, like again counts two). */
  n: number;
}

/**
 * PostgreSQL's push buffers its like notifications (PushBatch.likeNotes) and writes them at its end
 * in video id order (flushLikeNotifications), as it does its counters (server/sync/push-postgres.ts):
 * written as each like runs, two pushes liking the same videos in other orders would lock the rows
 * crosswise and deadlock.
 */
export type LikeNoteBuffer = Map<string, LikeNote>;

/**
 * A like on someone else's video. The video's likes are one row (its id derived from the video):
 * while unread it counts one more liker; once read, the next like opens it again with a count of 1.
 * A pending push keeps its time, so the likes in one batching window are one push. Written at once
 * (one statement), or buffered when the push keeps a buffer.
 */
export async function notifyLike(
  trx: Trx,
  changes: Changes,
  like: { videoId: string; ownerId: string; likerId: string; likerName: string },
  buffer?: LikeNoteBuffer,
): Promise<void> {
  if (like.ownerId === like.likerId) return;
  if (buffer) {
    const note = buffer.get(like.videoId);
    if (note) {
      note.n++;
      note.likerName = like.likerName;
    } else buffer.set(like.videoId, { videoId: like.videoId, ownerId: like.ownerId, likerName: like.likerName, n: 1 });
    return;
  }
  await writeLikeNotes(trx, changes, [{ videoId: like.videoId, ownerId: like.ownerId, likerName: like.likerName, n: 1 }]);
}

/** The buffered like notifications of this push, one statement in video id order; call before its change log. */
export async function flushLikeNotifications(trx: Trx, changes: Changes, buffer: LikeNoteBuffer | undefined): Promise<void> {
  if (!buffer?.size) return;
  const notes = [...buffer.values()].sort((a, b) => (a.videoId < b.videoId ? -1 : a.videoId > b.videoId ? 1 : 0));
  buffer.clear();
  await writeLikeNotes(trx, changes, notes);
}

async function writeLikeNotes(trx: Trx, changes: Changes, notes: LikeNote[]): Promise<void> {
  const now = changes.now;
  const rows = notes.map((l) => ({
    id: derivedNotificationId('likes', l.videoId),
    user_id: l.ownerId,
    kind: 'likes',
    video_id: l.videoId,
    count: l.n,
    actor_name: l.likerName,
    created_at: now,
    updated_at: now,
    push_due_at: now + likeBatchMs(),
  }));
  await trx
    .insertInto('notifications')
    .values(rows)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        count: sql<number>`CASE WHEN notifications.read_at IS NULL THEN notifications.count + excluded.count ELSE excluded.count END`,
        created_at: sql<number>`CASE WHEN notifications.read_at IS NULL THEN notifications.created_at ELSE excluded.created_at END`,
        actor_name: sql<string>`excluded.actor_name`,
        updated_at: sql<number>`excluded.updated_at`,
        read_at: null,
        push_due_at: sql<number>`COALESCE(notifications.push_due_at, excluded.push_due_at)`,
      }),
    )
    .execute();
  for (const r of rows) changes.row(notifications, { id: r.id, user_id: r.user_id, read_at: null });
  if (likeBatchMs() === 0) dueNow(changes);
}

/** A comment on someone else's video: its own row, pushed at once. */
export async function notifyComment(
  trx: Trx,
  changes: Changes,
  c: { videoId: string; ownerId: string; authorId: string; authorName: string; content: string },
): Promise<void> {
  if (c.ownerId === c.authorId) return;
  const id = randomUUID();
  const now = changes.now;
  const detail = c.content.length > COMMENT_EXCERPT ? `${c.content.slice(0, COMMENT_EXCERPT - 1).trimEnd()}…` : c.content;
  await trx
    .insertInto('notifications')
    .values({
      id,
      user_id: c.ownerId,
      kind: 'comment',
      video_id: c.videoId,
      count: 1,
      actor_name: c.authorName,
      actor_id: c.authorId,
      detail,
      created_at: now,
      updated_at: now,
      push_due_at: now,
    })
    .execute();
  changes.row(notifications, { id: id, user_id: c.ownerId, read_at: null });
  dueNow(changes);
}

/**
 * The first processing of an upload finished or failed. Once per video and outcome: the id is derived
 * from the video, so a job retried or run again writes nothing more.
 */
export async function notifyProcessing(
  trx: Trx,
  changes: Changes,
  p: { videoId: string; ownerId: string; kind: 'processed' | 'processing_failed'; detail: string },
): Promise<void> {
  const id = derivedNotificationId(p.kind, p.videoId);
  const now = changes.now;
  const r = await trx
    .insertInto('notifications')
    .values({ id, user_id: p.ownerId, kind: p.kind, video_id: p.videoId, count: 1, detail: p.detail, created_at: now, updated_at: now, push_due_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  if (!Number(r.numInsertedOrUpdatedRows ?? 0n)) return;
  changes.row(notifications, { id: id, user_id: p.ownerId, read_at: null });
  dueNow(changes);
}

/** The category names as the rewards page shows them, one winner's worth ("Best User"). */
const BOARD_NAMES: Record<string, string> = { best_user: 'Best User', best_viewer: 'Best Viewer' };

/** A distribution's winners with a prize: one row each ("You won ₹500 as #2 Best User"). */
export async function notifyPrizes(
  trx: Trx,
  changes: Changes,
  distributionId: string,
  winners: ReadonlyArray<{ board: string; rank: number; user_id: string; prize_rupees: number }>,
): Promise<void> {
  const now = changes.now;
  const rows = winners
    .filter((w) => w.prize_rupees > 0)
    .map((w) => ({
      id: derivedNotificationId('prize', `${distributionId}:${w.board}:${w.user_id}`),
      user_id: w.user_id,
      kind: 'prize',
      count: 1,
      detail: BOARD_NAMES[w.board] ?? w.board,
      amount_paise: Math.round(w.prize_rupees * 100),
      rank: w.rank,
      created_at: now,
      updated_at: now,
      push_due_at: now,
    }));
  if (!rows.length) return;
  await trx.insertInto('notifications').values(rows).execute();
  for (const r of rows) changes.row(notifications, { id: r.id, user_id: r.user_id, read_at: null });
  dueNow(changes);
}

/** A video's notifications go with it (call in the deletion's transaction). */
export async function deleteNotificationsOfVideo(trx: Trx, changes: Changes, videoId: string): Promise<void> {
  const gone = await trx.deleteFrom('notifications').where('video_id', '=', videoId).returning(['id', 'user_id']).execute();
  for (const n of gone) changes.row(notifications, { id: n.id, user_id: n.user_id, read_at: null });
}

/** A deleted account's notifications, devices and choices go with it (call in the deletion's transaction). */
export async function deleteNotificationsOfUser(trx: Trx, userId: string): Promise<void> {
  await trx.deleteFrom('notifications').where('user_id', '=', userId).execute();
  await trx.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
  await trx.deleteFrom('notification_prefs').where('user_id', '=', userId).execute();
}
