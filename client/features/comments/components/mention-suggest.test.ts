import { describe, expect, it } from 'vitest';
import { insertMention, mentionQueryAt, suggestMentions } from './mention-suggest';

describe('mentionQueryAt', () => {
  it('finds the handle typed right after an @ at the caret', () => {
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('hi @Ra', 6)).toEqual({ start: 3, query: 'Ra' });
    expect(mentionQueryAt('(@ravi.k_1', 10)).toEqual({ start: 1, query: 'ravi.k_1' });
    // The caret in the middle of the word: what is before it.
    expect(mentionQueryAt('hi @ravi', 6)).toEqual({ start: 3, query: 'ra' });
  });

  it('offers nothing inside a word, an address, after a space or for a word longer than a handle', () => {
    expect(mentionQueryAt('hello', 5)).toBeNull();
    expect(mentionQueryAt('me@mail.com', 11)).toBeNull();
    expect(mentionQueryAt('@@x', 3)).toBeNull();
    expect(mentionQueryAt('@ravi and', 9)).toBeNull();
    expect(mentionQueryAt('@ravi ', 6)).toBeNull();
    expect(mentionQueryAt(`@${'a'.repeat(31)}`, 32)).toBeNull();
    expect(mentionQueryAt(`@${'a'.repeat(30)}`, 31)).toEqual({ start: 0, query: 'a'.repeat(30) });
  });
});

describe('suggestMentions', () => {
  const people = [
    { id: '1', handle: 'meera', name: 'Meera Rao' },
    { id: '2', handle: 'ravi', name: 'Ravi Kumar' },
    { id: '3', handle: 'arav', name: 'Aravind' },
    { id: '4', handle: 'ravindra', name: 'Ravindra' },
  ];
  it('puts handles that start with the text first, then handles or names that contain it, in the given order', () => {
    expect(suggestMentions(people, 'rav').map((p) => p.handle)).toEqual(['ravi', 'ravindra', 'arav']);
    expect(suggestMentions(people, 'RAO').map((p) => p.handle)).toEqual(['meera']);
    expect(suggestMentions(people, '').map((p) => p.handle)).toEqual(['meera', 'ravi', 'arav', 'ravindra']);
    expect(suggestMentions(people, '', 2)).toHaveLength(2);
    expect(suggestMentions(people, 'zz')).toEqual([]);
  });
});

describe('insertMention', () => {
  it('replaces the typed part with the handle and a space, and puts the caret after it', () => {
    expect(insertMention('hi @ra', { start: 3, query: 'ra' }, 6, 'ravi')).toEqual({ text: 'hi @ravi ', caret: 9 });
    // Picked with the caret inside a word: the rest of the word goes too, the space after it stays.
    expect(insertMention('hi @rax there', { start: 3, query: 'ra' }, 6, 'ravi')).toEqual({ text: 'hi @ravi there', caret: 9 });
    expect(insertMention('@', { start: 0, query: '' }, 1, 'meera')).toEqual({ text: '@meera ', caret: 7 });
  });
});
