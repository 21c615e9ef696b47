import { useSyncStatus } from '../../data/hooks';
import { useSession } from '../auth/api';
import { usePendingUploads } from '../upload/api';

export interface AppStatus {
  online: boolean;
  syncing: boolean;
  /** Queued likes, comments, edits and deletes plus uploads not yet on the server. */
  pendingCount: number;
}

/** Network and outbox state for the banner. */
export function useAppStatus(): AppStatus {
  const session = useSession();
  const { online, syncing, pendingCount } = useSyncStatus();
  const uploads = usePendingUploads(session.status === 'signedIn' ? session.user.id : null);
  const waitingUploads = uploads.filter((u) => u.status === 'queued' || u.status === 'uploading' || u.status === 'paused').length;
  return { online, syncing, pendingCount: pendingCount + waitingUploads };
}
