import { useCallback } from 'react';
import { useSyncEngine } from '#client/sync/useSyncEngine';

export { useLocalProfile as useProfile, type LocalProfile } from '#client/sync/useLocalProfile';

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
