import { useSyncExternalStore } from 'react';

// After any admin change the lists and the stat cards load again (admin data is not cached offline).
let version = 0;
const listeners = new Set<() => void>();

export function adminDataChanged(): void {
  version += 1;
  for (const l of listeners) l();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useAdminDataVersion(): number {
  return useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
}
