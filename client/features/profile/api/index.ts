import { useCallback } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { ProfileItem } from '../../../../sync/protocol/messages';
import { getClientDb } from '../../../data/session';
import { useSyncEngine } from '../../../data/hooks';

export type LocalProfile = ProfileItem & { pending: boolean };

/** The signed-in member's profile from the local database (undefined while reading, null when none yet). */
export function useProfile(): LocalProfile | null | undefined {
  const engine = useSyncEngine();
  const userId = engine?.userId ?? null;
  return useLiveQuery(async () => {
    if (!userId) return null;
    const db = getClientDb();
    const p = await db.profile.get(userId);
    if (!p) return null;
    const pending = (await db.outbox.where('user_id').equals(userId).filter((e) => e.name === 'updateProfileName').count()) > 0;
    return { ...p, pending };
  }, [userId]);
}

/**
 * Renames the member (queued, shown at once). Throws a MutationError with a readable message when
 * the name is empty or longer than 80 characters.
 */
export function useUpdateProfileName(): (name: string) => Promise<void> {
  const engine = useSyncEngine();
  return useCallback(
    async (name: string) => {
      if (!engine) return;
      await engine.mutate('updateProfileName', { name });
    },
    [engine],
  );
}
