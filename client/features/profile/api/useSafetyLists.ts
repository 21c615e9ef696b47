import { useLiveQuery } from 'dexie-react-hooks';
import { getClientDb } from '#client/sync/active-engine';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import { safetyList, type SafetyListRow } from '../safety-rows';

export interface SafetyLists {
  blocked: SafetyListRow[];
  muted: SafetyListRow[];
}

/** The member's blocks and mutes from the device's stores (all of them, queued changes applied): offline too. Undefined while read. */
export function useSafetyLists(): SafetyLists | undefined {
  const engine = useSyncEngine();
  const me = engine?.userId ?? null;
  return useLiveQuery(async () => {
    if (!me) return undefined;
    const db = getClientDb();
    const [blocks, mutes] = await Promise.all([db.blocks.where('id').startsWith(`${me}:`).toArray(), db.mutes.where('id').startsWith(`${me}:`).toArray()]);
    return {
      blocked: safetyList(blocks as unknown as Array<Record<string, unknown>>, 'blocked'),
      muted: safetyList(mutes as unknown as Array<Record<string, unknown>>, 'muted'),
    };
  }, [me]);
}
