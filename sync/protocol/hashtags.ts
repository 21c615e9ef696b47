// Zod-free: the client turns hashtags into links with the same rules the server files videos under
// them by (docs/decisions/0025-discovery.md, "Hashtags").

/** The longest tag, in characters after normalization: a longer run after # is not a hashtag. */
export const HASHTAG_MAX_LENGTH = 50;
/** The most distinct tags one video is filed under: the first ten of its title, then its description. */
export const HASHTAGS_PER_VIDEO = 10;

// A tag is # then letters, digits, _ and the marks that belong to letters (Devanagari's vowel signs:
// #नमस्ते), in any script. A # after a letter, digit, _ or & is inside a word or an entity (C#,
// a&#39;), not a tag; an all-digit run (#1) is a rank, not a topic.
const TOKEN = /(?<![\p{L}\p{M}\p{N}_&#])#([\p{L}\p{M}\p{N}_]+)/gu;
const HAS_NON_DIGIT = /[^\p{N}]/u;

/** A tag as it is filed: NFKC (full-width letters, ligatures), lower case. */
export function normalizeHashtag(raw: string): string {
  return raw.normalize('NFKC').toLowerCase();
}

/** Whether `tag` (already normalized) is one a video can carry: the route param's check. */
export function isHashtag(tag: string): boolean {
  if (!tag || [...tag].length > HASHTAG_MAX_LENGTH || !HAS_NON_DIGIT.test(tag)) return false;
  return new RegExp(`^[\\p{L}\\p{M}\\p{N}_]+$`, 'u').test(tag) && normalizeHashtag(tag) === tag;
}

interface Token {
  start: number;
  end: number;
  tag: string;
}

function tokens(text: string): Token[] {
  const found: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const word = m[1] ?? '';
    const tag = normalizeHashtag(word);
    if (!isHashtag(tag)) continue;
    found.push({ start: m.index, end: m.index + 1 + word.length, tag });
  }
  return found;
}

/** The distinct tags of a video's texts, in the order they first appear, at most HASHTAGS_PER_VIDEO. */
export function hashtagsOf(...texts: ReadonlyArray<string | null | undefined>): string[] {
  const seen = new Set<string>();
  for (const text of texts) {
    for (const t of tokens(text ?? '')) {
      if (seen.size >= HASHTAGS_PER_VIDEO) return [...seen];
      seen.add(t.tag);
    }
  }
  return [...seen];
}

export type HashtagPart = { kind: 'text'; text: string } | { kind: 'hashtag'; text: string; tag: string };

/** A title or description cut into text and hashtag parts (each `#tag` as typed, with its filed tag). */
export function splitHashtags(text: string): HashtagPart[] {
  const parts: HashtagPart[] = [];
  let at = 0;
  for (const t of tokens(text)) {
    if (t.start > at) parts.push({ kind: 'text', text: text.slice(at, t.start) });
    parts.push({ kind: 'hashtag', text: text.slice(t.start, t.end), tag: t.tag });
    at = t.end;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
