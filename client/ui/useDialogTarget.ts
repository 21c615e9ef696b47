import { useCallback, useState } from 'react';

interface DialogTarget<T> {
  /** What the dialog is open for; null: closed. */
  target: T | null;
  /** Ever opened: the dialog is mounted from the first opening on. */
  used: boolean;
  open(target: T): void;
  close(): void;
  /** For its PieceBoundary: the dialog's code did not come. */
  onFailed(): void;
}

/**
 * What a screen's dialog (a lazyPiece, client/ui/lazy-piece.tsx) is open for, and whether it was
 * ever opened: it is mounted from the first opening on, so closing runs Radix's close. If its code
 * did not come, `onFailed` starts a fresh load (`retry`) and unmounts it: the next opening mounts
 * it afresh.
 */
export function useDialogTarget<T>(retry: () => void): DialogTarget<T> {
  const [target, setTarget] = useState<T | null>(null);
  const [used, setUsed] = useState(false);
  const open = useCallback((t: T) => {
    setUsed(true);
    setTarget(t);
  }, []);
  const close = useCallback(() => setTarget(null), []);
  const onFailed = useCallback(() => {
    retry();
    setTarget(null);
    setUsed(false);
  }, [retry]);
  return { target, used, open, close, onFailed };
}

/** useDialogTarget for a dialog about nothing in particular (the bell's list, a card's Edit, Upload). */
export function usePieceDialog(retry: () => void): { open: boolean; used: boolean; setOpen(open: boolean): void; onFailed(): void } {
  const { target, used, open, close, onFailed } = useDialogTarget<true>(retry);
  const setOpen = useCallback((next: boolean) => (next ? open(true) : close()), [open, close]);
  return { open: target !== null, used, setOpen, onFailed };
}
