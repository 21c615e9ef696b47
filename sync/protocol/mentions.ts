// Zod-free: the client splits a comment's text into text and mention links with the same rules the
// server reads the mentioned members by (docs/decisions/0023-conversations.md, "Mentions are read").
import { HANDLE_PATTERN } from './handles';

/** The most distinct handles one text can mention: a longer list is noise, and each is one key of a page's lookup. */
export const MENTIONS_PER_TEXT = 20;

// An @ that follows a letter, digit, _ or . is inside a word (an e-mail address: asha@example.com),
// and one followed by another @ or letter is an address too; neither is a mention. The dots at the
// end are the sentence's ("thanks @asha."), not the handle's.
const TOKEN = /(?<![\p{L}\p{N}_.@])@([A-Za-z0-9_.]+)(?![\p{L}\p{N}@])/gu;

interface Token {
  start: number;
  end: number;
  handle: string;
}

function tokens(text: string): Token[] {
  const found: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const word = (m[1] ?? '').replace(/\.+$/, '');
    const handle = word.toLowerCase();
    if (!HANDLE_PATTERN.test(handle)) continue;
    found.push({ start: m.index, end: m.index + 1 + word.length, handle });
  }
  return found;
}

/** The distinct lower-case handles a text mentions, in the order they first appear, at most MENTIONS_PER_TEXT. */
export function mentionedHandles(text: string): string[] {
  const seen = new Set<string>();
  for (const t of tokens(text)) {
    if (seen.size >= MENTIONS_PER_TEXT) break;
    seen.add(t.handle);
  }
  return [...seen];
}

export type MentionPart = { kind: 'text'; text: string } | { kind: 'mention'; text: string; handle: string };

/**
 * The text cut into the parts a comment renders: each `@handle` whose handle is in `members` (the
 * item's `mentions`) becomes a mention part (its text as typed), everything else stays text.
 */
export function splitMentions(text: string, members: readonly string[]): MentionPart[] {
  const known = new Set(members);
  const parts: MentionPart[] = [];
  let at = 0;
  for (const t of tokens(text)) {
    if (!known.has(t.handle)) continue;
    if (t.start > at) parts.push({ kind: 'text', text: text.slice(at, t.start) });
    parts.push({ kind: 'mention', text: text.slice(t.start, t.end), handle: t.handle });
    at = t.end;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
