import { toast } from '../ui/toast';
import { getAccessToken, onSessionEvents, refreshSession } from '../lib/session';
import type { Rejection } from '../sync/outbox';
import { mutationDef } from '#sync/mutations/catalogue';

/** A change the server refused for good (it was rolled back): the mutation says how it is announced. */
function announceRejection(r: Rejection): void {
  const def = mutationDef(r.name);
  if (def?.refusedTitle === null) return;
  toast.error(def?.refusedTitle ?? 'Change not saved', { description: r.error.message });
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
    signingOut: () => import('../sync/start-sync').then(({ stopSync }) => stopSync()),
    signedOut: () => {
      void import('../sync/start-sync').then(({ stopSync }) => stopSync());
    },
  });
}
