import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { hasHiddenFormatting, shownText } from './shown-text';
import { NameSchema } from './auth';

describe('hasHiddenFormatting', () => {
  it('finds bidi overrides and isolates, zero-width spaces, the BOM, soft hyphens, stray tags and lone surrogates', () => {
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200b', '\u200e', '\u200f']) {
      expect(hasHiddenFormatting(`Ann${c}Lee`), c.codePointAt(0)!.toString(16)).toBe(true);
    }
    for (const c of ['\ufeff', '\u00ad', '\u2060', '\u061c', '\u{E0041}', '\u{E0001}', '\ud800']) expect(hasHiddenFormatting(`a${c}b`)).toBe(true);
    expect(hasHiddenFormatting('Holiday \u202Egpj.exe')).toBe(true);
  });

  it('keeps the joiners emoji and scripts need, and subdivision flags', () => {
    expect(hasHiddenFormatting('Family 👨\u200d👩\u200d👧')).toBe(false);
    expect(hasHiddenFormatting('👩🏽\u200d💻 and ❤️\u200d🔥 and 🏳️\u200d🌈')).toBe(false);
    expect(hasHiddenFormatting('\u0645\u06CC\u200c\u062E\u0648\u0627\u0647\u0645')).toBe(false); // Persian, ZWNJ inside a word
    expect(hasHiddenFormatting('क्\u200dष')).toBe(false); // Devanagari, ZWJ after a virama (a mark)
    expect(hasHiddenFormatting('Go 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}!')).toBe(false);
    expect(hasHiddenFormatting('Ann Lee, café, 日本語')).toBe(false);
  });

  it('refuses a joiner that joins nothing: at an end, doubled or beside a space', () => {
    for (const s of ['\u200dAnn', 'Ann\u200c', 'A\u200d\u200dB', 'A \u200dB', 'A\u200d B']) expect(hasHiddenFormatting(s), JSON.stringify(s)).toBe(true);
  });
});

describe('shownText', () => {
  const title = shownText(z.string().trim().min(1), 'The title', 'one');
  const description = shownText(z.string().trim(), 'The description', 'several');

  it('refuses control characters, keeping line breaks and tabs in text of several lines', () => {
    expect(title.safeParse('Bell\u0007').error?.issues[0]?.message).toBe('The title must not contain control characters.');
    expect(title.safeParse('Two\nlines').success).toBe(false);
    expect(title.safeParse('Esc\u001b[2J').success).toBe(false);
    expect(description.safeParse('Line one\nline two\r\n\tindented').success).toBe(true);
    expect(description.safeParse('NUL\u0000').success).toBe(false);
    expect(description.safeParse('C1\u0085').success).toBe(false);
  });

  it('refuses hidden formatting with its own sentence', () => {
    expect(title.safeParse('Cat \u202Egnp.exe').error?.issues[0]?.message).toBe('The title must not contain invisible formatting characters.');
    expect(description.safeParse('ok 👨\u200d👩\u200d👧').success).toBe(true);
  });

  it('applies to names', () => {
    expect(NameSchema.safeParse('Evil\u202Enimda').success).toBe(false);
    expect(NameSchema.safeParse('Ann 👨\u200d👩\u200d👧').data).toBe('Ann 👨\u200d👩\u200d👧');
  });
});
