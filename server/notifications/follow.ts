import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { notifications } from '#sync/entities/registry';
import type { Changes } from '../changes/changes';
import { derivedNotificationId } from './create';
import { likeBatchMs } from './like-batch';
import { wakePushSenders } from './wake';

// The follow notification ("Asha started following you": docs/notifications.md). Its id is derived
// from the pair and the UTC day of the follow, so a follow makes at most one per pair and day; an
// unfollow takes it back while it is unread, so following and unfollowing over and over leaves the
// member one at most. Its push waits the likes' batching window: a follow taken back within it is
// never pushed (one pushed at once could not be called back).

type Trx = Transaction<Database>;

const DAY_MS = 24 * 60 * 60 * 1000;

function followNotificationId(followerId: string, followeeId: string, at: number): string {
  return derivedNotificationId('follow', `${followerId}:${followeeId}:${Math.floor(at / DAY_MS)}`);
}

/** A new follow: told to the followee and pushed after the batching window, unless the pair's row of today exists (a re-follow after it was read). */
export async function notifyFollow(trx: Trx, changes: Changes, f: { followerId: string; followerName: string; followeeId: string }): Promise<void> {
  const now = changes.now;
  const id = followNotificationId(f.followerId, f.followeeId, now);
  const r = await trx
    .insertInto('notifications')
    .values({
      id,
      user_id: f.followeeId,
      kind: 'follow',
      count: 1,
      actor_name: f.followerName,
      // The link to the follower's page reads their handle through this id (notification-rows.ts), as it is when shown.
      actor_id: f.followerId,
      created_at: now,
      updated_at: now,
      push_due_at: now + likeBatchMs(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  if (!Number(r.numInsertedOrUpdatedRows ?? 0n)) return;
  changes.row(notifications, { id, user_id: f.followeeId, read_at: null });
  if (likeBatchMs() === 0) changes.afterCommit(wakePushSenders);
}

/** An unfollow: the follow's notification goes while it is unread (a read one stays: the member saw it). */
export async function withdrawFollowNotification(trx: Trx, changes: Changes, f: { followerId: string; followeeId: string; followedAt: number }): Promise<void> {
  const gone = await trx
    .deleteFrom('notifications')
    .where('id', '=', followNotificationId(f.followerId, f.followeeId, f.followedAt))
    .where('user_id', '=', f.followeeId)
    .where('read_at', 'is', null)
    .returning(['id', 'user_id'])
    .execute();
  for (const n of gone) changes.row(notifications, { id: n.id, user_id: n.user_id, read_at: null }, { deleted: true });
}
