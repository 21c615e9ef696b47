import { useCallback } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { getClientDb } from '#client/sync/active-engine';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import type { OutboxEntry } from '#client/sync/db';
import { toast } from '../toast';

export interface FollowState {
  /** Whether the member follows them, as this device knows it (queued follows and unfollows applied). */
  following: boolean;
  /** A follow or unfollow of them is queued and not yet confirmed by the server. */
  pending: boolean;
}

const isFollowEntryFor = (userId: string) => (e: OutboxEntry) =>
  (e.name === 'follow' || e.name === 'unfollow') && (e.args as { userId?: unknown } | null)?.userId === userId;

/**
 * Whether the member follows `userId`, read from the device's `follows` store (every follow of the
 * member, with queued ones applied: docs/pwa.md, "People"), so it holds offline and changes at once.
 * Undefined while it is read or with no signed-in member.
 */
export function useFollowState(userId: string | null): FollowState | undefined {
  const engine = useSyncEngine();
  const me = engine?.userId ?? null;
  return useLiveQuery(async () => {
    if (!me || !userId) return undefined;
    const db = getClientDb();
    const [row, queued] = await Promise.all([db.follows.get(`${me}:${userId}`), db.outbox.where('user_id').equals(me).toArray()]);
    return { following: !!row, pending: queued.some(isFollowEntryFor(userId)) };
  }, [me, userId]);
}

/**
 * Follows or unfollows (queued, shown at once). A change the server refuses is rolled back and
 * announced by the sync bridge; one refused on the device (oneself) is said here.
 */
export function useSetFollowing(): (userId: string, follow: boolean) => void {
  const engine = useSyncEngine();
  return useCallback(
    (userId: string, follow: boolean) => {
      if (!engine) return;
      engine.mutate(follow ? 'follow' : 'unfollow', { userId }).catch((e: unknown) => {
        toast.error('Follow not saved', { description: e instanceof Error ? e.message : 'Something went wrong' });
      });
    },
    [engine],
  );
}
