import { useSyncExternalStore } from 'react';
import { getSessionState, subscribeSession } from './session';
import type { SessionState } from './session-types';

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSessionState, getSessionState);
}
