import { useOnline } from '#client/lib/useOnline';
import { useSyncStatus } from '#client/sync/useSyncEngine';

/** Whether a search can be sent: the browser has a network and the sync engine has not lost the server. */
export function useSearchOnline(): boolean {
  const engine = useSyncStatus();
  return useOnline() && engine.online;
}
