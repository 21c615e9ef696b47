import { useSyncStatus } from '#client/sync/useSyncEngine';
import { useOnline } from '#client/lib/useOnline';
import { useSession } from '#client/lib/session';
import { usePendingUploads } from '#client/sync/uploads';

export interface AppStatus {
  online: boolean;
  syncing: boolean;
  /** Queued likes, comments, edits and deletes plus uploads not yet on the server. */
  pendingCount: number;
}

/** Network and outbox state for the banner. */
export function useAppStatus(): AppStatus {
  const session = useSession();
  const { online: engineOnline, syncing, pendingCount } = useSyncStatus();
  // The engine learns of a lost network from a failed request; the browser knows before any is made.
  const online = useOnline() && engineOnline;
  const uploads = usePendingUploads(session.status === 'signedIn' ? session.user.id : null);
  const waitingUploads = uploads.filter((u) => u.status === 'queued' || u.status === 'uploading' || u.status === 'paused').length;
  return { online, syncing, pendingCount: pendingCount + waitingUploads };
}
