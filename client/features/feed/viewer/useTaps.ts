import { useCallback, useEffect, useRef } from 'react';

/** Two taps closer than this are a double tap (a like), as in the short-video apps. */
export const DOUBLE_TAP_MS = 300;

/**
 * One tap (after DOUBLE_TAP_MS, so a double tap does not also pause) or a double tap, with where the
 * second tap landed (the heart shows there).
 */
export function useTaps(onTap: () => void, onDoubleTap: (x: number, y: number) => void): (e: React.MouseEvent) => void {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ onTap, onDoubleTap });
  latest.current = { onTap, onDoubleTap };
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback((e: React.MouseEvent) => {
    // A click from the keyboard (Enter, Space) has no pointer position: it is a plain tap at once.
    if (e.detail === 0) return latest.current.onTap();
    const now = performance.now();
    clearTimeout(timer.current);
    if (now - last.current < DOUBLE_TAP_MS) {
      last.current = 0;
      const box = e.currentTarget.getBoundingClientRect();
      latest.current.onDoubleTap(e.clientX - box.left, e.clientY - box.top);
      return;
    }
    last.current = now;
    timer.current = setTimeout(() => latest.current.onTap(), DOUBLE_TAP_MS);
  }, []);
}
