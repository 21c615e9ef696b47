import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

export interface SlideInView {
  /** The slide that fills the scroller now. */
  current: number;
  /** Moves by whole slides (keys, buttons), with a snap; at once under prefers-reduced-motion. */
  go(delta: number): void;
}

/**
 * Which slide of the scroll-snap scroller is in view, kept on the same video when the list changes
 * around it (a new video synced in at the top of the feed), starting at `start`.
 */
export function useSlideInView(scroller: RefObject<HTMLElement | null>, ids: readonly string[], start: number): SlideInView {
  const [current, setCurrent] = useState(start);
  const currentId = useRef(ids[start]);
  currentId.current = ids[current] ?? currentId.current;

  // The tapped video is where the viewer opens (once: later the list may move it, and the member scrolls).
  const first = useRef(start);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = first.current * el.clientHeight;
  }, [scroller]);

  const key = ids.join(',');
  useLayoutEffect(() => {
    const el = scroller.current;
    const at = ids.indexOf(currentId.current ?? '');
    if (!el || at < 0 || at === current) return;
    el.scrollTop = at * el.clientHeight;
    setCurrent(at);
    // Only a change of the list moves the scroller here; scrolling moves `current`.
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps

  // Where a key or wheel move is headed while its smooth scroll runs: a second step meanwhile goes
  // on from there, instead of from a position half way (which a snap would then fight). Until it
  // lands, snapping is off and the slide in view stays the one left: Chromium answers a layout
  // change during the scroll (a slide re-rendered: the move's own switch, a tap's pause) by
  // snapping back to the slide it was snapped to (seen under load: a move undone half way). It
  // lands exactly on a slide, so snapping comes back without a jump.
  const aim = useRef<number | null>(null);
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let frame = 0;
    const measure = () => {
      const h = el.clientHeight;
      if (h > 0) setCurrent(Math.min(Math.round(el.scrollTop / h), Math.max(0, el.childElementCount - 1)));
    };
    const onScroll = () => {
      cancelAnimationFrame(frame);
      if (aim.current === null) frame = requestAnimationFrame(measure);
    };
    const arrived = () => {
      aim.current = null;
      el.style.scrollSnapType = '';
      clearTimeout(settle.current);
      measure();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    el.addEventListener('scrollend', arrived);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(settle.current);
      el.removeEventListener('scroll', onScroll);
      el.removeEventListener('scrollend', arrived);
    };
  }, [scroller]);

  const go = useCallback(
    (delta: number) => {
      const el = scroller.current;
      if (!el) return;
      const from = aim.current ?? Math.round(el.scrollTop / el.clientHeight);
      const target = Math.max(0, Math.min(ids.length - 1, from + delta));
      const smooth = !reducedMotion() && target !== from;
      aim.current = smooth ? target : null;
      // A browser without scrollend (or a scroll cut short) still lands: the aim lapses after 1.5 s.
      clearTimeout(settle.current);
      if (smooth) {
        el.style.scrollSnapType = 'none';
        settle.current = setTimeout(() => el.dispatchEvent(new Event('scrollend')), 1500);
      }
      el.scrollTo({ top: target * el.clientHeight, behavior: smooth ? 'smooth' : 'auto' });
    },
    [scroller, ids.length],
  );
  return { current, go };
}
