import { useLiveQuery } from 'dexie-react-hooks';
import type { FeedItem } from '#sync/protocol/messages';
import { getClientDb } from '#client/sync/active-engine';
import { feedItems } from '#client/sync/queries';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import type { FeedCard } from '../components/types';

/**
 * Videos read from the server (the Following feed, a creator's grid) shown as the device knows
 * them: a video the local copy holds is shown from there, with the member's queued likes and
 * comments applied and its Pending mark; others as the server sent them.
 */
export function useLocalOverlay(items: FeedItem[]): FeedCard[] {
  const engine = useSyncEngine();
  const userId = engine?.userId ?? null;
  const ids = items.map((v) => v.id).join(',');
  const local = useLiveQuery(async () => {
    if (!ids) return new Map<string, FeedCard>();
    const db = getClientDb();
    const [rows, queued] = await Promise.all([db.videos.bulkGet(ids.split(',')), userId ? db.outbox.where('user_id').equals(userId).toArray() : []]);
    const known = rows.filter((r) => r !== undefined);
    return new Map<string, FeedCard>(feedItems(known, queued, null, false).items.map((v) => [v.id, v]));
  }, [ids, userId]);
  return items.map((v) => local?.get(v.id) ?? { ...v, pending: false });
}
