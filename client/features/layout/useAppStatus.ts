import { useOnline } from '../../app/useOnline';

export interface AppStatus {
  online: boolean;
  syncing: boolean;
  pendingCount: number;
}

/** Network and outbox state for the banner. */
export function useAppStatus(): AppStatus {
  const online = useOnline();
  return { online, syncing: false, pendingCount: 0 };
}
