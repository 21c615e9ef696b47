import { useTransitionStore } from '../useTransitionStore';
import { getSessionState, subscribeSession } from './session';
import type { SessionState } from './session-types';

/** The session; a sign-in renders the member's screen in a transition (client/lib/useTransitionStore.ts). */
export function useSession(): SessionState {
  return useTransitionStore(subscribeSession, getSessionState);
}
