import type * as z from 'zod';

// The rules for text one member writes and others are shown: names, video titles and descriptions,
// comments (docs/sync.md, "Text shown to others"). Refused, not stripped: a member sees why, and
// what is stored is what was sent.

/**
 * Control characters (C0, DEL, C1: Unicode's Cc) break layouts and logs. Written as plain ranges
 * without the `u` flag so the OpenAPI `pattern` is a valid ECMA-262 regex for any schema validator.
 */
export const NO_CONTROL_CHARS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** The same for text of several lines (a description, a comment): tab, line feed and carriage return stay. */
export const NO_CONTROL_CHARS_BUT_LINE_BREAKS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

/** Neither control, format, surrogate nor separator: a character that shows. */
const SHOWN = '[^\\p{Cc}\\p{Cf}\\p{Cs}\\p{Z}]';
/**
 * The zero-width joiner and non-joiner between two characters that show: emoji sequences
 * (U+1F468 U+200D U+1F469, a family) and scripts that need them (Persian, the Indic scripts). At the
 * ends, doubled or beside a space they hide nothing but themselves.
 */
const JOINER_IN_TEXT = new RegExp(`(?<=${SHOWN})[\\u200c\\u200d](?=${SHOWN})`, 'gu');
/** A subdivision flag (U+1F3F4, tag letters, the cancel tag: England's, Scotland's): its tags are format characters. */
const TAG_FLAG = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
/** Format characters (Cf: bidi overrides and isolates, zero-width spaces, the BOM, soft hyphens, tags) and lone surrogates. */
const HIDDEN = /[\p{Cf}\p{Cs}]/u;

/**
 * Whether the text holds a character that changes how text around it shows while not showing itself:
 * U+202E turns "gpj.exe" into "exe.jpg", and a name is the title of a push notification. The joiners
 * inside words and emoji, and the tags of a subdivision flag, are what such text is made of, and stay.
 */
export function hasHiddenFormatting(text: string): boolean {
  return HIDDEN.test(text.replace(TAG_FLAG, 'x').replace(JOINER_IN_TEXT, ''));
}

/**
 * `schema` with the rules of text shown to others: no control characters (line breaks and tabs kept
 * when `lines` is 'several') and no hidden formatting. `subject` starts the refusals, e.g. "The title".
 */
export function shownText<S extends z.ZodString>(schema: S, subject: string, lines: 'one' | 'several'): S {
  return schema
    .regex(lines === 'one' ? NO_CONTROL_CHARS : NO_CONTROL_CHARS_BUT_LINE_BREAKS, `${subject} must not contain control characters.`)
    .refine((text) => !hasHiddenFormatting(text), `${subject} must not contain invisible formatting characters.`) as S;
}
