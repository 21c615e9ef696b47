import autocannon from 'autocannon';
import { median, quantile } from './stats';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers plus connection errors and timeouts. */
  errors: number;
  requests: number;
}

export interface LoadOptions {
  url: string;
  seconds: number;
  connections?: number;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  requests?: autocannon.Request[];
}

/** One bounded autocannon run against loopback. */
export async function load(o: LoadOptions): Promise<LoadResult> {
  const r = await autocannon({
    url: o.url,
    connections: o.connections ?? 10,
    duration: o.seconds,
    method: o.method ?? 'GET',
    ...(o.headers ? { headers: o.headers } : {}),
    ...(o.body !== undefined ? { body: o.body } : {}),
    ...(o.requests ? { requests: o.requests } : {}),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors + r.timeouts,
    requests: r.requests.total,
  };
}

export interface AbSamples<T> {
  ours: T[];
  base: T[];
}

/**
 * Alternates A and B `rounds` times (A first on even rounds, B first on odd ones) so slow drifts of
 * a shared machine hit both sides alike. A warm-up of each side runs first and is discarded.
 */
export async function interleaved<T>(rounds: number, ours: () => Promise<T>, base: () => Promise<T>, warmup = true): Promise<AbSamples<T>> {
  if (warmup) {
    await ours();
    await base();
  }
  const out: AbSamples<T> = { ours: [], base: [] };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      out.ours.push(await ours());
      out.base.push(await base());
    } else {
      out.base.push(await base());
      out.ours.push(await ours());
    }
  }
  return out;
}

/** Latencies of many sequential calls summarised as median and p99, in ms. */
export function latencySummary(samples: number[]): { p50: number; p99: number } {
  return { p50: median(samples), p99: quantile(samples, 0.99) };
}

/** Throws when a load run saw errors: a benchmark of failing requests measures nothing. */
export function assertClean(what: string, r: LoadResult): void {
  if (r.errors > 0) throw new Error(`${what}: ${r.errors} of ${r.requests} requests failed (non-2xx or connection errors)`);
  if (r.requests === 0) throw new Error(`${what}: no request completed`);
}
