import { median, spreadPct } from './stats';

/** Which way is better: a throughput must be at least the target ratio, a time at most. */
export type Direction = 'higher' | 'lower';

export interface BenchRow {
  name: string;
  /** What the numbers are: e.g. 'req/s', 'ms p99', 'KB gzip'. */
  unit: string;
  ours: number | null;
  baseline: number | null;
  /** ours / baseline (medians of the rounds). */
  ratio: number | null;
  /** e.g. '>= 0.85x', '<= 150 KB', 'report'. */
  target: string;
  pass: boolean | null;
  /** Rounds' spread, e.g. 'ours +-3%, base +-5%, 5 rounds'. */
  spread: string;
  /** 'ok', 'not available: <why>' or 'error: <message>'. */
  status: string;
  notes?: string;
}

export interface RatioSpec {
  name: string;
  unit: string;
  direction: Direction;
  /** Target on the ratio; omitted for report-only rows. */
  targetRatio?: number;
  /** Optional absolute bound on ours (e.g. live update < 100 ms). */
  absolute?: { max: number; label: string };
  notes?: string;
}

/** A row from per-round samples of both sides: medians, their ratio, spread and the verdict. */
export function ratioRow(spec: RatioSpec, ours: number[], base: number[]): BenchRow {
  const o = median(ours);
  const b = median(base);
  const ratio = b ? o / b : null;
  let pass: boolean | null = null;
  const targets: string[] = [];
  if (spec.targetRatio !== undefined && ratio !== null) {
    pass = spec.direction === 'higher' ? ratio >= spec.targetRatio : ratio <= spec.targetRatio;
    targets.push(`${spec.direction === 'higher' ? '>=' : '<='} ${spec.targetRatio}x`);
  }
  if (spec.absolute) {
    pass = (pass ?? true) && o <= spec.absolute.max;
    targets.push(spec.absolute.label);
  }
  return {
    name: spec.name,
    unit: spec.unit,
    ours: round(o),
    baseline: round(b),
    ratio: ratio === null ? null : Math.round(ratio * 1000) / 1000,
    target: targets.length ? targets.join(' and ') : 'report',
    pass,
    spread: `ours +-${spreadPct(ours).toFixed(0)}%, base +-${spreadPct(base).toFixed(0)}%, n=${ours.length}/${base.length}`,
    status: 'ok',
    ...(spec.notes ? { notes: spec.notes } : {}),
  };
}

export function unavailable(name: string, unit: string, target: string, why: string): BenchRow {
  return { name, unit, ours: null, baseline: null, ratio: null, target, pass: null, spread: '', status: `not available: ${why}` };
}

export function failed(name: string, unit: string, target: string, err: unknown): BenchRow {
  const msg = err instanceof Error ? err.message : String(err);
  return { name, unit, ours: null, baseline: null, ratio: null, target, pass: false, spread: '', status: `error: ${msg.split('\n')[0]}` };
}

export function round(n: number): number {
  if (!Number.isFinite(n)) return n;
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return Math.round(n * 10 ** digits) / 10 ** digits;
}

const fmt = (v: number | null) => (v === null ? '-' : String(v));

/** The table as fixed-width text (and the same rows as markdown for the docs). */
export function formatTable(rows: BenchRow[]): string {
  const head = ['benchmark', 'unit', 'ours', 'baseline', 'ratio', 'target', 'pass', 'spread / status'];
  const body = rows.map((r) => [
    r.name,
    r.unit,
    fmt(r.ours),
    fmt(r.baseline),
    r.ratio === null ? '-' : `${r.ratio}x`,
    r.target,
    r.pass === null ? '-' : r.pass ? 'PASS' : 'FAIL',
    r.status === 'ok' ? r.spread + (r.notes ? `; ${r.notes}` : '') : r.status,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function markdownTable(rows: BenchRow[]): string {
  const out = ['| benchmark | unit | ours | baseline | ratio | target | pass | spread / status |', '|---|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const status = r.status === 'ok' ? r.spread + (r.notes ? `; ${r.notes}` : '') : r.status;
    out.push(
      `| ${r.name} | ${r.unit} | ${fmt(r.ours)} | ${fmt(r.baseline)} | ${r.ratio === null ? '-' : `${r.ratio}x`} | ${r.target} | ${r.pass === null ? '-' : r.pass ? 'PASS' : 'FAIL'} | ${status.replace(/\|/g, '/')} |`,
    );
  }
  return out.join('\n');
}
