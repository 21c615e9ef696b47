import { useCallback, useRef, useState } from 'react';

/**
 * Runs an async action at most once at a time: double clicks and repeated Enter presses never
 * double-submit (the ref closes the gap before React re-renders with busy=true).
 */
export function useSubmitOnce<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (...args: A) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      try {
        await action(...args);
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [action],
  );
  return { busy, run };
}
