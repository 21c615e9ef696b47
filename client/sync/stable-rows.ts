/**
 * Live queries hand back fresh objects for every row each time anything in the table changes.
 * Keeping the previous object of a row whose fields are all equal lets memoized list items skip
 * rendering, so a like re-renders its one card, not the whole feed.
 */
export function reuseUnchanged<T extends { id: string }>(prev: readonly T[], next: readonly T[]): T[] {
  const before = new Map(prev.map((r) => [r.id, r]));
  let same = prev.length === next.length;
  const out = next.map((row, i) => {
    const old = before.get(row.id);
    const keep = old !== undefined && shallowEqual(old, row) ? old : row;
    if (keep !== prev[i]) same = false;
    return keep;
  });
  // Nothing changed at all: the same array, so dependants of it do not recompute either.
  return same ? (prev as T[]) : out;
}

function shallowEqual(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}
