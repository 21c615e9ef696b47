import { toast } from '../ui/toast';
import { getAccessToken, onSessionEvents, refreshSession } from '../lib/session';
import type { Rejection } from '../sync/outbox';
import type * as StartSync from '../sync/start-sync';
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
 * A member coming back: while the session is restored, the engine's code, the validators' chunk (both
 * fetched at once, not one after the other) and the opening of IndexedDB get going, so the first pull
 * leaves soon after the refresh answers (docs/benchmarks.md, "First visit"). Nothing runs that needs
 * the session: the engine starts on signedIn as before.
 */
function prepareForMember(): void {
  void import('../sync/load-validators').then(({ loadValidators }) => loadValidators()).catch(() => undefined);
  void loadStartSync().then(({ prepareSync }) => prepareSync());
}

type StartSyncModule = typeof StartSync;
let startSyncModule: StartSyncModule | null = null;
const loadStartSync = () => import('../sync/start-sync').then((m) => (startSyncModule = m));

/**
 * Runs `run` with the engine's module: at once when it is in (so the engine starts in the same turn
 * as the sign-in, before React draws the member's screen for it), else once it has loaded.
 */
function withStartSync(run: (m: StartSyncModule) => unknown): void {
  if (startSyncModule) void run(startSyncModule);
  else void loadStartSync().then(run);
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
    // After the refresh request, not before: on HTTP/1.1 the chunks would take the connections it waits for.
    restoring: prepareForMember,
    signedIn: (user) => withStartSync(({ startSync }) => startSync({ userId: user.id, getAccessToken, refreshSession, onRejected: announceRejection })),
    signingOut: () => loadStartSync().then(({ stopSync }) => stopSync()),
    signedOut: () => {
      withStartSync(({ stopSync }) => stopSync());
      void forgetPeoplePages().catch(() => undefined);
    },
  });
}
