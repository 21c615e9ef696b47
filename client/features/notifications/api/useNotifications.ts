import { useCallback } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { getClientDb } from '#client/sync/active-engine';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import type { NotificationRow } from '#client/sync/db';
import { MAX_READ_BATCH } from '#sync/protocol/limits';

export type LocalNotification = NotificationRow;

export interface NotificationsState {
  /** Newest first (a batched like moves up as its count grows); undefined while the first read runs. */
  items: LocalNotification[] | undefined;
  unread: number;
  /** The signed-in member whose list this is (null before the sync engine runs). */
  userId: string | null;
}

/** The bell's list from the local database: it is the device's copy, so it opens offline too. */
export function useNotifications(): NotificationsState {
  const engine = useSyncEngine();
  const userId = engine?.userId ?? null;
  const items = useLiveQuery(async () => (userId ? getClientDb().notifications.orderBy('updated_ms').reverse().toArray() : []), [userId]);
  return { items, unread: items?.filter((n) => !n.read).length ?? 0, userId };
}

/**
 * Marks notifications read through the outbox (one markNotificationsRead per MAX_READ_BATCH ids):
 * the device shows them read at once and the server hears of it when it can.
 */
export function useMarkRead(): (ids: string[]) => Promise<void> {
  const engine = useSyncEngine();
  return useCallback(
    async (ids: string[]) => {
      if (!engine || ids.length === 0) return;
      for (let i = 0; i < ids.length; i += MAX_READ_BATCH) await engine.mutate('markNotificationsRead', { ids: ids.slice(i, i + MAX_READ_BATCH) });
    },
    [engine],
  );
}
