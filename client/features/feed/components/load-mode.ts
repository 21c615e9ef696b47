/**
 * What a card loads before the member presses play (docs/pwa.md, "Feed"):
 * - 'preload': the card in view and the next one attach their source and buffer the first segment;
 * - 'poster': the cards around them show their poster and load no video;
 * - 'none': everything else loads nothing.
 */
export type LoadMode = 'preload' | 'poster' | 'none';

/** Cards after the one in view that already show their poster. */
export const POSTER_AHEAD = 2;

/** `noVideoBeforeTap`: data saver, or the first poster not on screen yet (video-bytes-gate.ts). */
export function loadModeFor(index: number, current: number, noVideoBeforeTap: boolean): LoadMode {
  const offset = index - current;
  // No video bytes before a tap, not even for the card in view.
  if (!noVideoBeforeTap && (offset === 0 || offset === 1)) return 'preload';
  if (offset >= -1 && offset <= POSTER_AHEAD) return 'poster';
  return 'none';
}

/** The card in view: the one that shows the most of itself (the first of equals); -1 when none. */
export function cardInView(ratios: ReadonlyMap<number, number>): number {
  let best = -1;
  let bestRatio = 0;
  for (const [index, ratio] of ratios) {
    if (ratio > bestRatio || (ratio === bestRatio && ratio > 0 && index < best)) {
      best = index;
      bestRatio = ratio;
    }
  }
  return best;
}
