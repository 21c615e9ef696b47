import { startTransition, useEffect, useState } from 'react';

/**
 * An external store read like useSyncExternalStore, but re-rendered in a transition when it
 * changes. useSyncExternalStore's updates render synchronously, in one task however large the
 * change: the member's whole screen at sign-in, the first cards when the first pull lands. On a
 * slow phone those were tasks of 50-120 ms; in a transition React renders them in slices and the
 * page stays responsive (docs/benchmarks.md, "First visit"). A store's subscribers are told in
 * one turn, so they render the same state together; one that mounts later reads the current one.
 */
export function useTransitionStore<T>(subscribe: (onChange: () => void) => () => void, get: () => T): T {
  const [state, setState] = useState(get);
  useEffect(() => {
    // Called, not handed to setState: React would pass a getter the previous state as an argument.
    const update = () => startTransition(() => setState(() => get()));
    // A change between this component's render and this effect is not missed.
    update();
    return subscribe(update);
  }, [subscribe, get]);
  return state;
}
