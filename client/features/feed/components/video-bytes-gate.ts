import { useEffect, useState } from 'react';
import { afterFirstScreen } from '#client/lib/after-first-screen';

/** Past this the cards preload anyway: a poster that never answers holds nothing back for long. */
const POSTER_WAIT_MS = 3000;

/** Once open, open for the page's life: a later list (another tab, a creator page) preloads at once. */
let open = false;

/** The frame after the next one: by then the frame that drew the decoded poster has been painted. */
const afterNextPaint = (run: () => void) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(run, 0)));

/**
 * Whether the feed's cards may load video before a tap ('preload', load-mode.ts): once the first card's
 * poster, the first screen's largest picture, is on screen and the first screen is drawn. Before that,
 * hls.js (about 150 KB compressed) and two cards' first segments would share a slow link and the main
 * thread with that poster (docs/benchmarks.md, "Session 26"). A tap still plays at once.
 */
export function useVideoBytesAllowed(firstPoster: string | null): boolean {
  const [allowed, setAllowed] = useState(open);
  useEffect(() => {
    if (allowed) return;
    let settled = false;
    let cancelled = false;
    let cancelIdle: (() => void) | null = null;
    const allow = () => {
      open = true;
      setAllowed(true);
    };
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      afterNextPaint(() => {
        if (!cancelled) cancelIdle = afterFirstScreen(allow);
      });
    };
    const timer = setTimeout(settle, POSTER_WAIT_MS);
    if (firstPoster) {
      // The same address as the card's <video poster> and the feed's preload: one request, from the cache.
      const img = new Image();
      img.src = firstPoster;
      img.decode().then(settle, settle);
    } else {
      settle();
    }
    return () => {
      cancelled = settled = true;
      clearTimeout(timer);
      cancelIdle?.();
    };
  }, [allowed, firstPoster]);
  return allowed;
}
