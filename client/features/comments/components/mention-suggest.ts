// The "@" of the composer: which handle is being typed at the caret, the people who fit it, and
// the text once one is picked. Pure, so it is tested without a browser.

/** The handle being typed: the "@" at `start`, `query` what follows it up to the caret. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** A handle's characters (sync/protocol/handles.ts), in either case while typed. */
const HANDLE_CHAR = /[A-Za-z0-9_.]/;
/** What may stand before an "@" that starts a mention: not a handle's or an address's character ("me@mail.com" is no mention). */
const BEFORE_AT = /[A-Za-z0-9_.@]/;
/** At most a handle's length (HANDLE_MAX) is looked back. */
const MAX_QUERY = 30;

/** The mention being typed at `caret`, or null (no "@" right before the word, or the "@" is inside a word). */
export function mentionQueryAt(text: string, caret: number): MentionQuery | null {
  let i = caret;
  while (i > 0 && caret - i <= MAX_QUERY && HANDLE_CHAR.test(text[i - 1]!)) i -= 1;
  if (i === 0 || text[i - 1] !== '@' || caret - i > MAX_QUERY) return null;
  const at = i - 1;
  if (at > 0 && BEFORE_AT.test(text[at - 1]!)) return null;
  return { start: at, query: text.slice(i, caret) };
}

export interface MentionCandidate {
  id: string;
  handle: string;
  name: string;
}

/**
 * The people to offer for `query`: handles that start with it first, then handles or names that
 * contain it, each group in the given order (the most recently followed first); at most `max`.
 */
export function suggestMentions<T extends MentionCandidate>(people: readonly T[], query: string, max = 6): T[] {
  const q = query.toLowerCase();
  const starts = people.filter((p) => p.handle.startsWith(q));
  const contains = people.filter((p) => !p.handle.startsWith(q) && (p.handle.includes(q) || p.name.toLowerCase().includes(q)));
  return [...starts, ...contains].slice(0, max);
}

/** The text with the mention at `q` (up to `caret`) replaced by "@handle ", and where the caret goes. */
export function insertMention(text: string, q: MentionQuery, caret: number, handle: string): { text: string; caret: number } {
  const before = text.slice(0, q.start);
  const after = text.slice(caret).replace(/^[A-Za-z0-9_.]*/, '');
  const inserted = `@${handle}${after.startsWith(' ') ? '' : ' '}`;
  return { text: `${before}${inserted}${after}`, caret: before.length + inserted.length + (after.startsWith(' ') ? 1 : 0) };
}
