import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False in the prerendered markup of a public page and while React adopts it (the server
 * snapshot), true once the page is live. A prerendered form has no handler until then: pressed
 * early, the browser would submit it itself, a GET with every field, the password too, in the
 * address. Its submit button stays disabled until this is true (docs/decisions/0019-first-visit.md).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
