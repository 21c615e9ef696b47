/** Small statistics for benchmark rounds: medians and spreads, never means of noisy samples. */

export function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export const median = (values: number[]): number => quantile(values, 0.5);

/** Spread of rounds as +-% of the median: half the min..max range. */
export function spreadPct(values: number[]): number {
  if (values.length < 2) return 0;
  const m = median(values);
  if (!m) return 0;
  return ((Math.max(...values) - Math.min(...values)) / 2 / Math.abs(m)) * 100;
}

/** Runs `fn` n times and returns each duration in ms. */
export async function timeEach(n: number, fn: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}
