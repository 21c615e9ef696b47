import { useEffect, type RefObject } from 'react';

/** Wheel distance (px) that is one step: a mouse notch is about 100, a trackpad flick adds up to it. */
const STEP_PX = 50;
/** After a step, the rest of the gesture (a trackpad's inertia, a fast wheel's burst) moves nothing more. */
const QUIET_MS = 450;
/** A pause this long starts a new gesture. */
const GESTURE_GAP_MS = 200;
const LINE_PX = 40;

/**
 * One video per wheel gesture on desktop. Scroll-snap alone snaps a notch's 100 px back to the
 * video it left, and a trackpad's inertia would run through several: the viewer takes the wheel
 * and moves one video per gesture, like its keys. Ctrl + wheel (zoom) is the browser's.
 */
export function useWheelSteps(scroller: RefObject<HTMLElement | null>, go: (delta: number) => void): void {
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let sum = 0;
    let lastEvent = 0;
    let quietUntil = 0;
    const onWheel = (e: WheelEvent) => {
      if (e.ctrlKey || Math.abs(e.deltaY) < Math.abs(e.deltaX)) return;
      e.preventDefault();
      const now = e.timeStamp;
      if (now - lastEvent > GESTURE_GAP_MS) sum = 0;
      lastEvent = now;
      if (now < quietUntil) return;
      sum += e.deltaMode === WheelEvent.DOM_DELTA_LINE ? e.deltaY * LINE_PX : e.deltaY;
      if (Math.abs(sum) < STEP_PX) return;
      go(Math.sign(sum));
      sum = 0;
      quietUntil = now + QUIET_MS;
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [scroller, go]);
}
