import { toast } from '../ui/toast';
import { getAccessToken, getSessionState, onSessionEvents, refreshSession } from '../lib/session';
import type { Rejection } from '../sync/outbox';
import { mutationDef } from '#sync/mutations/catalogue';
import { announceUploadsWith } from '../sync/uploads/upload-events';
import { forgetPeoplePages } from '../lib/people-cache';
import { isQuietRefusal } from './quiet-refusals';
import { CAPTIONS_REFUSED, UPLOADED, UPLOAD_FAILED_FALLBACK, UPLOAD_FAILED_TITLE } from '../features/upload/upload-copy';

/** A change the server refused for good (it was rolled back): the mutation says how it is announced. */
function announceRejection(r: Rejection): void {
  const def = mutationDef(r.name);
  if (def?.refusedTitle === null || isQuietRefusal(r)) return;
  // An empty message: the server gave no reason (the engine has no words of its own).
  toast.error(def?.refusedTitle ?? 'Change not saved', { description: r.error.message || 'Refused by the server.' });
}

/** The upload queue's outcomes, in the upload feature's words (the queue itself shows nothing). */
function announceUploads(): void {
  announceUploadsWith({
    onSuccess: () => toast.success(UPLOADED.title, { description: UPLOADED.description }),
    onFailure: (_record, reason) => toast.error(UPLOAD_FAILED_TITLE, { description: reason || UPLOAD_FAILED_FALLBACK }),
    onCaptionsRefused: (_videoId, reason) => toast.error(CAPTIONS_REFUSED.title, { description: reason || CAPTIONS_REFUSED.description }),
  });
}

/**
 * Starts the sync engine on sign-in (also for a session opened offline from the cached profile) and
 * stops it on sign-out. The outbox stays in IndexedDB, tagged with the user, and is sent after the
 * next sign-in. The engine loads with import() at sign-in: neither the landing page nor the first
 * signed-in screen waits for its code. The upload queue's outcomes are announced from the start.
 */
export function connectSyncToSession(): void {
  announceUploads();
  onSessionEvents({
    signedIn: (user) => {
      void import('../sync/start-sync').then(({ startSync }) => startSync({ userId: user.id, getAccessToken, refreshSession, onRejected: announceRejection }));
    },
    signingOut: () => import('../sync/start-sync').then(({ stopSync }) => stopSync()),
    signedOut: () => {
      void import('../sync/start-sync').then(({ stopSync }) => stopSync());
      void forgetPeoplePages().catch(() => undefined);
    },
  });
}

/**
 * While a returning member's refresh is out (the session is still loading), the first signed-in
 * screen's one-time cost is paid in that wait: declaring the local database (Dexie's schema). It was
 * in the first renders, a long task already on a slow phone (docs/benchmarks.md, "First visit").
 */
export function warmFirstSignedInScreen(): void {
  if (getSessionState().status !== 'loading') return;
  // The schema is built in a task of its own, not in the one that evaluated Dexie's chunk: two
  // shorter tasks on a slow phone's main thread instead of one long one.
  void import('../sync/active-engine').then(
    ({ getClientDb }) => setTimeout(getClientDb, 0),
    () => undefined,
  );
}
