import { useSyncStatus } from '../../data/hooks';

export interface AppStatus {
  online: boolean;
  syncing: boolean;
  pendingCount: number;
}

/** Network and outbox state for the banner. */
export function useAppStatus(): AppStatus {
  const { online, syncing, pendingCount } = useSyncStatus();
  return { online, syncing, pendingCount };
}
