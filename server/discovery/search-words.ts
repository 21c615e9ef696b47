// What a search's text becomes before it reaches a full-text syntax (docs/decisions/0025-discovery.md,
// "Search"): words of letters, digits and marks only, in any script, so that no `"`, `*`, `:`, `&`,
// `(` or operator word typed by a member is ever read as FTS5 MATCH or to_tsquery syntax.

/** The most words a search matches on (the rest of a long query is ignored). */
export const SEARCH_WORDS_MAX = 8;
/**
 * A last word this long or longer is matched as a prefix (what the member is still typing). A
 * one-character prefix would merge the lists of every word starting with that letter, on either
 * engine, for little use: it is matched as a whole word.
 */
export const PREFIX_MIN = 2;
/**
 * Names are matched only when a word has this many characters: a one- or two-letter start is the
 * start of a large share of all names (thousands of rows read for a page), and what was typed
 * still finds handles. Both engines follow the same rule so that they find the same people.
 */
export const NAME_WORD_MIN = 3;

const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The words of `q`: NFKC, lower case, split on anything but letters, marks and digits; a word of marks alone dropped. */
export function searchWords(q: string): string[] {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .split(NOT_WORD)
    .filter((w) => HAS_LETTER_OR_DIGIT.test(w))
    .slice(0, SEARCH_WORDS_MAX);
}

const isPrefix = (words: readonly string[], i: number) => i === words.length - 1 && [...words[i]!].length >= PREFIX_MIN;

const ftsTerm = (words: readonly string[], i: number) => `"${words[i]}"${isPrefix(words, i) ? '*' : ''}`;

/**
 * An FTS5 MATCH of every word (implicit AND), the last one as a prefix. Each word is a quoted
 * string: the tokenizer splits it as it split the row (a Devanagari word around its vowel signs),
 * and a word holds no `"`.
 */
export function ftsMatch(words: readonly string[]): string {
  return words.map((_, i) => ftsTerm(words, i)).join(' ');
}

/** An FTS5 expression of any of the words (OR), the last one as a prefix, quoted as ftsMatch quotes them. */
export function ftsAny(words: readonly string[]): string {
  return words.map((_, i) => ftsTerm(words, i)).join(' OR ');
}

/**
 * A to_tsquery text of every word (`&`), the last one as a prefix (`:*`); with `weight`, only
 * lexemes of that weight (A: the title) and any word rather than all (`|`). Each word is quoted and
 * holds no `'` or `\`. The caller folds it with vidi_fold() as the indexed text was folded.
 */
export function tsQueryText(words: readonly string[], weight?: 'A'): string {
  const op = weight ? ' | ' : ' & ';
  return words.map((w, i) => `'${w}'${isPrefix(words, i) ? ':*' : ''}${weight ? (isPrefix(words, i) ? weight : `:${weight}`) : ''}`).join(op);
}

/** Whether the words may be matched against names (NAME_WORD_MIN). */
export const matchesNames = (words: readonly string[]): boolean => words.some((w) => [...w].length >= NAME_WORD_MIN);
