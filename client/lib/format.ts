// One formatter for every card: toLocaleDateString with options builds a new one per call, which
// was a sixth of the first cards' render on a slow phone (docs/benchmarks.md, "First visit").
let dateFormat: Intl.DateTimeFormat | null = null;

export function formatDate(value: number | string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return dateFormat.format(d);
}

export function isoDate(value: number | string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function initialOf(name: string): string {
  return (name.trim()[0] ?? '?').toUpperCase();
}
