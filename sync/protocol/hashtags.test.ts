import { describe, expect, it } from 'vitest';
import { HASHTAGS_PER_VIDEO, hashtagsOf, isHashtag, normalizeHashtag, splitHashtags } from './hashtags';

describe('hashtags', () => {
  it('finds tags in any script, lower-cased and NFKC-normalized, each once', () => {
    expect(hashtagsOf('Goa #Beach #sunset_2026 and #beach again', '#नमस्ते दोस्तों #Ｆｏｏｄ')).toEqual(['beach', 'sunset_2026', 'नमस्ते', 'food']);
  });

  it('leaves out what only looks like a tag: inside a word, an entity, all digits, too long', () => {
    expect(hashtagsOf('C# and a&#39; b and we are #1 and x#y')).toEqual([]);
    expect(hashtagsOf(`#${'a'.repeat(50)} #${'b'.repeat(51)}`)).toEqual(['a'.repeat(50)]);
  });

  it(`keeps the first ${HASHTAGS_PER_VIDEO}, the title's before the description's`, () => {
    const title = Array.from({ length: 8 }, (_, i) => `#t${i}`).join(' ');
    const description = Array.from({ length: 8 }, (_, i) => `#d${i}`).join(' ');
    expect(hashtagsOf(title, description)).toEqual([...Array.from({ length: 8 }, (_, i) => `t${i}`), 'd0', 'd1']);
  });

  it('checks a route tag as filed', () => {
    expect(isHashtag('beach')).toBe(true);
    expect(isHashtag('नमस्ते')).toBe(true);
    expect(isHashtag('Beach')).toBe(false);
    expect(isHashtag('2026')).toBe(false);
    expect(isHashtag('a-b')).toBe(false);
    expect(isHashtag('')).toBe(false);
    expect(normalizeHashtag('ＢＥＡＣＨ')).toBe('beach');
  });

  it('cuts a text into parts that put it back together', () => {
    const text = 'Sunset at #Goa, with #friends.';
    const parts = splitHashtags(text);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => p.kind === 'hashtag')).toEqual([
      { kind: 'hashtag', text: '#Goa', tag: 'goa' },
      { kind: 'hashtag', text: '#friends', tag: 'friends' },
    ]);
  });
});
