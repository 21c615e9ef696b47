export type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable'; reason: string };

/**
 * One byte range per request (RFC 9110 14.1.2): `a-b`, `a-`, or a suffix `-n`. Multiple ranges
 * are refused rather than answered with multipart bodies no player here needs. A header in
 * another unit is ignored (full response), as the RFC allows.
 */
export function parseRange(header: string | null | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const m = /^\s*([A-Za-z]+)\s*=\s*(.*)$/.exec(header);
  if (!m) return { kind: 'unsatisfiable', reason: 'Malformed Range header.' };
  if (m[1]?.toLowerCase() !== 'bytes') return { kind: 'full' };
  const spec = (m[2] ?? '').trim();
  if (spec.includes(',')) return { kind: 'unsatisfiable', reason: 'Only one range per request is supported.' };
  const r = /^(\d*)-(\d*)$/.exec(spec);
  if (!r || (r[1] === '' && r[2] === '')) return { kind: 'unsatisfiable', reason: 'Malformed Range header.' };
  return r[1] === '' ? suffixRange(Number(r[2]), size) : boundedRange(Number(r[1]), r[2] ?? '', size);
}

/** `-n`: the last n bytes (all of them when n is more than the size). */
function suffixRange(suffix: number, size: number): RangeResult {
  if (suffix === 0 || size === 0) return { kind: 'unsatisfiable', reason: 'The requested range is empty.' };
  return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
}

/** `a-b` or `a-`: an end past the file is cut to its last byte. */
function boundedRange(start: number, last: string, size: number): RangeResult {
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable', reason: 'The requested range starts past the end of the file.' };
  if (end < start) return { kind: 'unsatisfiable', reason: 'The requested range ends before it starts.' };
  return { kind: 'partial', start, end };
}
