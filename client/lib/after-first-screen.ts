import { useEffect, useState } from 'react';

/**
 * Work that the first screen does not need (the comments dialog's code, the ad, the share helper,
 * housekeeping) waits until the feed's first cards are drawn, then for an idle moment. On a slow
 * phone's first visit every script fetched and run before the first card's poster delays it: the
 * network and the main thread are shared (docs/benchmarks.md, "First visit").
 */

/** Past this, deferred work runs anyway: a screen of the shell without a feed never says it is drawn. */
const LATEST_MS = 4000;

let drawn = false;
const waiting = new Set<() => void>();
/** The one LATEST_MS timer, set by the first caller that had to wait. */
let fallback: ReturnType<typeof setTimeout> | null = null;

function release(): void {
  if (drawn) return;
  drawn = true;
  for (const run of waiting) run();
  waiting.clear();
}

/**
 * The first screen is on screen: the feed calls it after the commit that shows its first cards, and a
 * prerendered page once hydrated. What waited runs once the frame is painted.
 */
export function markFirstScreenDrawn(): void {
  if (drawn) return;
  // The next frame paints the commit; what waited starts in a task after it.
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(release, 0));
  else release();
}

function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, 0);
  return () => clearTimeout(handle);
}

/**
 * Runs `run` once the first screen is drawn (or LATEST_MS after the page started) and the main
 * thread is idle. Returns a cancel function for effects.
 */
export function afterFirstScreen(run: () => void): () => void {
  let cancelIdle: (() => void) | null = null;
  let cancelled = false;
  const start = () => {
    if (!cancelled) cancelIdle = whenIdle(run);
  };
  if (drawn) {
    start();
  } else {
    waiting.add(start);
    const sinceStart = typeof performance === 'undefined' ? 0 : performance.now();
    fallback ??= setTimeout(release, Math.max(0, LATEST_MS - sinceStart));
  }
  return () => {
    cancelled = true;
    waiting.delete(start);
    cancelIdle?.();
  };
}

/** False until afterFirstScreen would run: for reads the first screen does without (a second database, say). */
export function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(drawn);
  useEffect(() => (ready ? undefined : afterFirstScreen(() => setReady(true))), [ready]);
  return ready;
}
