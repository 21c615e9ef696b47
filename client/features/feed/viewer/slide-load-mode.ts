import { loadModeFor, type LoadMode } from '../components/load-mode';

/**
 * What a viewer slide loads: the feed's rules (load-mode.ts: the next video its first segment, the
 * one after its poster), and the video before the one in view keeps its source as well, so going
 * back starts at once as going forward does. The one just left keeps what it buffered (nothing is
 * fetched again); a viewer opened part way down a list buffers the first segment of the one above.
 * Data saver keeps the feed's rules: nothing loads ahead, or behind.
 */
export function slideLoadMode(index: number, current: number, dataSaver: boolean): LoadMode {
  if (!dataSaver && index === current - 1) return 'preload';
  return loadModeFor(index, current, dataSaver);
}
