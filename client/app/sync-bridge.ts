import { toast } from '../ui/toast';
import { getAccessToken, onSessionEvents, refreshSession } from '../features/auth/api';
import type { Rejection } from '../sync/outbox';

/** Toast titles (the product's copy) for a change the server refused for good (it was rolled back). */
const REJECTED_TITLES: Record<string, string> = {
  addComment: 'Comment Failed',
  deleteVideo: 'Delete Failed',
  updateProfileName: 'Update Failed',
  like: 'Like not saved',
  unlike: 'Like not saved',
  recordShare: 'Share not saved',
};

function announceRejection(r: Rejection): void {
  // A view that does not count is not the member's concern.
  if (r.name === 'recordView') return;
  toast.error(REJECTED_TITLES[r.name] ?? 'Change not saved', { description: r.error.message });
}

/**
 * Starts the sync engine on sign-in (also for a session opened offline from the cached profile) and
 * stops it on sign-out. The outbox stays in IndexedDB, tagged with the user, and is sent after the
 * next sign-in. The engine loads with import() at sign-in: neither the landing page nor the first
 * signed-in screen waits for its code.
 */
export function connectSyncToSession(): void {
  onSessionEvents({
    signedIn: (user) => {
      void import('../sync/start-sync').then(({ startSync }) => startSync({ userId: user.id, getAccessToken, refreshSession, onRejected: announceRejection }));
    },
    signedOut: () => {
      void import('../sync/start-sync').then(({ stopSync }) => stopSync());
    },
  });
}
