import { useLiveQuery } from 'dexie-react-hooks';
import { readProfile, type LocalProfile } from './queries';
import { getClientDb } from './active-engine';
import { useSyncEngine } from './useSyncEngine';

export type { LocalProfile };

/** The signed-in member's profile from the local database (undefined while reading, null when none yet). */
export function useLocalProfile(): LocalProfile | null | undefined {
  const engine = useSyncEngine();
  const userId = engine?.userId ?? null;
  return useLiveQuery(async () => (userId ? readProfile(getClientDb(), userId) : null), [userId]);
}
