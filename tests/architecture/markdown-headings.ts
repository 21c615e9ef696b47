/** A heading's text as written, without its markdown (code ticks, emphasis, links). */
function plain(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .trim();
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return plain(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A quoted section name or heading compared loosely: case, curly quotes and runs of spaces aside. */
export function sectionKey(text: string): string {
  return plain(text).replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').toLowerCase();
}

export interface Headings {
  /** Anchors, with GitHub's -1, -2 for repeated headings. */
  anchors: Set<string>;
  /** Each heading and named paragraph as sectionKey gives it. */
  names: string[];
}

/**
 * The name of a paragraph or list item the docs cite as a section: its bold lead (`**Errors.**`,
 * `- **The bell** (…)`) or a list item's words before its colon (`* Sync while closed: …`).
 */
function paragraphName(line: string): string | null {
  const lead = /^\s*(?:[-*+]\s+|\d+\.\s+)?\*\*(.+?)\*\*/.exec(line) ?? /^\s*[-*+]\s+([^:*`]{1,60}):/.exec(line);
  return lead ? lead[1]!.replace(/[.:]$/, '') : null;
}

/** The headings (and named paragraphs) of a markdown text, outside fenced code blocks. */
export function headingsOf(markdown: string): Headings {
  const anchors = new Set<string>();
  const names: string[] = [];
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    const named = m ? null : paragraphName(line);
    if (named) names.push(sectionKey(named));
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
    names.push(sectionKey(m[1]!));
  }
  return { anchors, names };
}
