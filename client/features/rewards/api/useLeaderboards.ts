import { useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { memberHttp, useSession } from '#client/lib/session';
import { localDb } from './local-store';
import type { Leaderboards } from '#sync/rest-api/rewards';
import { isLeaderboards } from './is-leaderboards';

export interface LeaderboardsState {
  /** The last standings this device saw, or null before the first one arrived. */
  data: Leaderboards | null;
  /** Still reading the local store (not the network). */
  loading: boolean;
}

const REFRESH_MS = 15_000;

/** Fetches the standings and keeps them as the local snapshot; offline it keeps the last one. */
export async function refreshLeaderboards(): Promise<Leaderboards | null> {
  let res: Response;
  try {
    res = await memberHttp.send('/api/rewards/leaderboards', { method: 'GET' });
  } catch {
    return null;
  }
  if (!res.ok) return null;
  const data: unknown = await res.json().catch(() => null);
  if (!isLeaderboards(data)) return null;
  const table = localDb().leaderboards;
  // A newer snapshot from the sync pull wins over an older answer that arrived late.
  await localDb().transaction('rw', table, async () => {
    const current = await table.get('current');
    if (current && isLeaderboards(current.data) && current.data.viewer_id === data.viewer_id && current.data.as_of > data.as_of) return;
    await table.put({ id: 'current', data, as_of: data.as_of });
  });
  return data;
}

/**
 * The rewards screen's data: the snapshot in the local store (written by the sync pull, or by
 * refreshLeaderboards), live as it changes. While online it also asks the server now and then, so
 * the screen is fresh even before a pull ran.
 */
export function useLeaderboards(): LeaderboardsState {
  const session = useSession();
  const userId = session.status === 'signedIn' ? session.user.id : null;
  const row = useLiveQuery(async () => (await localDb().leaderboards.get('current')) ?? null, []);

  useEffect(() => {
    if (!userId) return;
    const refresh = () => {
      if (navigator.onLine && document.visibilityState === 'visible') void refreshLeaderboards();
    };
    refresh();
    const timer = window.setInterval(refresh, REFRESH_MS);
    window.addEventListener('online', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('online', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [userId]);

  if (row === undefined) return { data: null, loading: true };
  const data = row && isLeaderboards(row.data) && (!row.data.viewer_id || row.data.viewer_id === userId) ? row.data : null;
  return { data, loading: false };
}
