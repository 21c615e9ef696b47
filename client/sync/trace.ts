/**
 * Step timings of the sync engine for the live-update benchmark. Off unless a page defined
 * `window.__vidiTrace` as an array before the app started (the bench does it with an init script),
 * so a member's app records nothing and keeps no growing buffer.
 */
export interface TraceEntry {
  step: string;
  /** Wall-clock ms with sub-ms precision, comparable across pages of one browser. */
  t: number;
}

export function trace(step: string): void {
  const buf = (globalThis as { __vidiTrace?: TraceEntry[] }).__vidiTrace;
  if (!Array.isArray(buf)) return;
  buf.push({ step, t: performance.timeOrigin + performance.now() });
}
