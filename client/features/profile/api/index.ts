import { useCallback } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { readProfile, type LocalProfile } from '#client/sync/queries';
import { getClientDb } from '#client/sync/active-engine';
import { useSyncEngine } from '#client/sync/hooks';

export type { LocalProfile };

/** The signed-in member's profile from the local database (undefined while reading, null when none yet). */
export function useProfile(): LocalProfile | null | undefined {
  const engine = useSyncEngine();
  const userId = engine?.userId ?? null;
  return useLiveQuery(async () => (userId ? readProfile(getClientDb(), userId) : null), [userId]);
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
