import { notifications } from '#sync/entities/registry';
import { createHash } from 'node:crypto';
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { onPostgres } from '#db/migrations/portable';
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
  const text = `${kind}:${key}`;
  let id = derivedIds.get(text);
  if (id === undefined) {
    id = createHash('sha256').update(text).digest('base64url').slice(0, 32);
    // Bounded: cleared whole when full (a like's hash is cheap to make again, the map must not grow).
    if (derivedIds.size >= DERIVED_IDS_KEPT) derivedIds.clear();
    derivedIds.set(text, id);
  }
  return id;
}

// Every like of a push hashes its video's id; the hot videos repeat, and a hash object per like
// was a tenth of the like notification's CPU under the mixed load (docs/benchmarks.md, "Mixed load").
const DERIVED_IDS_KEPT = 4096;
const derivedIds = new Map<string, string>();

/** After the commit, the senders look at once (a push due now should not wait for the next tick). */
export function dueNow(changes: Changes): void {
  changes.afterCommit(wakePushSenders);
}

interface LikeNote {
  /** The row's id, derived from what was liked (a video, a comment). */
  id: string;
  kind: 'likes' | 'comment_likes';
  videoId: string;
  /** The comment liked (its deletion takes the row), null for a video's likes. */
  commentId: string | null;
  /** The liked comment's opening words, null for a video's likes. */
  detail: string | null;
  ownerId: string;
  likerName: string;
  /** The newest liker, named with likerName (the device purges a blocked or muted member's rows by it). */
  likerId: string;
  /** Likes of this push on it (a like, unlike, like again counts two). */
  n: number;
}

/**
 * A push buffers its like notifications (PushBatch.likeNotes) and writes them at its end in id
 * order (flushLikeNotifications): one statement per push instead of one per like (a push of 100
 * likes spent 13 % of its time writing them one at a time on SQLite), and on PostgreSQL, as it
 * does its counters (server/sync/push-postgres.ts), no crosswise locks: written as each like runs,
 * two pushes liking the same videos or comments in other orders would deadlock. A like's
 * notification is the last thing its mutation does, so a mutation rolled back to its savepoint
 * never left one in the buffer; a push rolled back whole has its buffer cleared by the next one.
 */
export type LikeNoteBuffer = Map<string, LikeNote>;

/** What was liked, whose it is and who liked it: a video, or one of its comments (`comment`). */
export interface Liked {
  videoId: string;
  ownerId: string;
  likerId: string;
  likerName: string;
  comment?: { id: string; content: string };
}

/** The comment's opening words kept in a notification ("…" when cut). */
export function commentExcerpt(content: string): string {
  return content.length > COMMENT_EXCERPT ? `${content.slice(0, COMMENT_EXCERPT - 1).trimEnd()}…` : content;
}

function likeNoteOf(like: Liked): LikeNote {
  const c = like.comment;
  return {
    id: c ? derivedNotificationId('comment_likes', c.id) : derivedNotificationId('likes', like.videoId),
    kind: c ? 'comment_likes' : 'likes',
    videoId: like.videoId,
    commentId: c?.id ?? null,
    detail: c ? commentExcerpt(c.content) : null,
    ownerId: like.ownerId,
    likerName: like.likerName,
    likerId: like.likerId,
    n: 1,
  };
}

/**
 * A like on someone else's video or comment. The likes of one video (or one comment) are one row,
 * its id derived from what was liked: while unread it counts one more liker; once read, the next
 * like opens it again with a count of 1. A pending push keeps its time, so the likes in one batching
 * window are one push. Written at once (one statement), or buffered when the push keeps a buffer.
 */
export async function notifyLike(trx: Trx, changes: Changes, like: Liked, buffer?: LikeNoteBuffer): Promise<void> {
  if (like.ownerId === like.likerId) return;
  const note = likeNoteOf(like);
  if (buffer) {
    const pending = buffer.get(note.id);
    if (pending) {
      pending.n++;
      pending.likerName = like.likerName;
      pending.likerId = like.likerId;
    } else buffer.set(note.id, note);
    return;
  }
  await writeLikeNotes(trx, changes, [note]);
}

/** The buffered like notifications of this push, one statement in id order; call before its change log. */
export async function flushLikeNotifications(trx: Trx, changes: Changes, buffer: LikeNoteBuffer | undefined): Promise<void> {
  if (!buffer?.size) return;
  const notes = [...buffer.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  buffer.clear();
  await writeLikeNotes(trx, changes, notes);
}

async function writeLikeNotes(trx: Trx, changes: Changes, notes: LikeNote[]): Promise<void> {
  const now = changes.now;
  const rows = notes.map((l) => ({
    id: l.id,
    user_id: l.ownerId,
    kind: l.kind,
    video_id: l.videoId,
    comment_id: l.commentId,
    detail: l.detail,
    count: l.n,
    actor_name: l.likerName,
    actor_id: l.likerId,
    created_at: now,
    updated_at: now,
    push_due_at: now + likeBatchMs(),
  }));
  if (onPostgres(trx as unknown as Kysely<unknown>)) {
    await sql`INSERT INTO notifications (${sql.raw(LIKE_COLS.join(', '))}) VALUES ${sql.join(rows.map((r) => sql`(${sql.join(LIKE_COLS.map((c) => r[c]))})`))}
      ON CONFLICT (id) DO UPDATE SET ${sql.raw(LIKE_UPSERT_SET)}, push_due_at = COALESCE(notifications.push_due_at, excluded.push_due_at)`.execute(trx);
  } else {
    const json = JSON.stringify(rows.map((r) => LIKE_COLS.map((c) => r[c])));
    await trx.executeQuery(CompiledQuery.raw(SQLITE_LIKE_UPSERT, [json]));
    await trx.executeQuery(CompiledQuery.raw(SQLITE_LIKE_DUE, [now + likeBatchMs(), json]));
  }
  for (const r of rows) changes.row(notifications, { id: r.id, user_id: r.user_id, read_at: null });
  if (likeBatchMs() === 0) dueNow(changes);
}

const LIKE_COLS = [
  'id',
  'user_id',
  'kind',
  'video_id',
  'comment_id',
  'detail',
  'count',
  'actor_name',
  'actor_id',
  'created_at',
  'updated_at',
  'push_due_at',
] as const;

/** What a like does to its video's (or comment's) existing row: one more liker while unread, a fresh count of 1 once read. */
const LIKE_UPSERT_SET = `count = CASE WHEN notifications.read_at IS NULL THEN notifications.count + excluded.count ELSE excluded.count END,
  created_at = CASE WHEN notifications.read_at IS NULL THEN notifications.created_at ELSE excluded.created_at END,
  actor_name = excluded.actor_name, actor_id = excluded.actor_id, updated_at = excluded.updated_at, read_at = NULL`;

// SQLite: the rows go as one JSON array, so each statement is one fixed text for any number of
// notes, prepared once (db/statement-cache.ts) and run without Kysely compiling it on every push.
// SQLite rewrites an index entry whenever its column is in an UPDATE's SET, changed or not: the
// upsert leaves push_due_at out, and the second statement sets it only on the rows with no push
// pending (new ones got it from the insert; a read row liked again), so a like of a row already
// pending no longer rewrites its notifications_push_due entry (~6 of ~226 pages per 50 likes;
// docs/benchmarks.md, "Mixed load"). WHERE true keeps SQLite's parser from reading the upsert's ON
// as a join's; `+push_due_at` keeps the planner on the primary key (notifications_push_due would
// walk every row without a push).
const SQLITE_LIKE_UPSERT = `INSERT INTO notifications (${LIKE_COLS.join(', ')})
  SELECT ${LIKE_COLS.map((_, i) => `value ->> ${i}`).join(', ')} FROM json_each(?) WHERE true
  ON CONFLICT (id) DO UPDATE SET ${LIKE_UPSERT_SET}`;
const SQLITE_LIKE_DUE = `UPDATE notifications SET push_due_at = ?
  WHERE id IN (SELECT value ->> 0 FROM json_each(?)) AND +push_due_at IS NULL`;

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
