import { useCallback, useState } from 'react';

/**
 * What a screen's dialog is open for (null: closed), and whether it was ever opened: the dialog is
 * mounted from the first opening on, so closing runs Radix's close (focus back to the opener).
 * `forget` unmounts it (its code did not come): the next opening mounts it afresh.
 */
export function useDialogTarget<T>(): { target: T | null; used: boolean; open(target: T): void; close(): void; forget(): void } {
  const [target, setTarget] = useState<T | null>(null);
  const [used, setUsed] = useState(false);
  const open = useCallback((t: T) => {
    setUsed(true);
    setTarget(t);
  }, []);
  const close = useCallback(() => setTarget(null), []);
  const forget = useCallback(() => {
    setTarget(null);
    setUsed(false);
  }, []);
  return { target, used, open, close, forget };
}
