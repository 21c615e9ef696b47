/** What the sync engine knows about the connection, for useSyncStatus. */
export interface EngineStatus {
  /** The last request reached the server (and the browser says it is online). */
  online: boolean;
  /** A push or pull is running. */
  syncing: boolean;
  /** Why sending is paused, if it is: the queue is kept until the user can send again. */
  paused: null | 'signed_out' | 'account_suspended' | 'payment_required' | 'forbidden';
  /** The live-update stream is connected. */
  live: boolean;
  /** The last push or pull failed although the network is up (a server error): retrying with backoff. */
  failing: boolean;
}

export function createStatusStore(initial: EngineStatus) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch: Partial<EngineStatus>) {
      const next = { ...state, ...patch };
      if (Object.keys(patch).every((k) => next[k as keyof EngineStatus] === state[k as keyof EngineStatus])) return;
      state = next;
      for (const l of listeners) l();
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}
export type StatusStore = ReturnType<typeof createStatusStore>;
