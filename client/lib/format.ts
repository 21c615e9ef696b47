// One formatter for every card: toLocaleDateString with options builds a new one per call. The
// first one also loads the browser's locale data, a third of the first cards' render on a slow
// phone (docs/benchmarks.md, "First visit"): warmDateFormat builds it ahead, in a wait.
let dateFormat: Intl.DateTimeFormat | null = null;

export function warmDateFormat(): Intl.DateTimeFormat {
  dateFormat ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  return dateFormat;
}

export function formatDate(value: number | string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : warmDateFormat().format(d);
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
