const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A card's or a comment's date in the app's language, as en-US writes it ("Nov 29, 2026"), in the
 * member's time zone. Written out rather than through Intl.DateTimeFormat: the first formatter
 * loads the browser's locale data, 20-35 ms of a slow phone's main thread in the first screen
 * (docs/benchmarks.md, "First visit"), and the rest of the app's copy is English too.
 */
export function formatDate(value: number | string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
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
