import { describe, expect, it } from 'vitest';
import { MENTIONS_PER_TEXT, mentionedHandles, splitMentions } from './mentions';

describe('mentionedHandles', () => {
  it('reads the distinct handles, lower-cased, in order', () => {
    expect(mentionedHandles('@Asha and @ravi_k, then @ASHA again (@mei.lin).')).toEqual(['asha', 'ravi_k', 'mei.lin']);
  });
  it('ignores e-mail addresses, words glued to the @ and tokens that are no handle', () => {
    expect(mentionedHandles('write to asha@example.com or a_@b.io')).toEqual([]);
    expect(mentionedHandles('@ab @1abc @_abc @' + 'a'.repeat(31) + ' @joséphine @asha@host.org')).toEqual([]);
  });
  it('takes the end of a sentence as punctuation', () => {
    expect(mentionedHandles('thanks @asha. See @ravi!, and @mei?')).toEqual(['asha', 'ravi', 'mei']);
  });
  it('keeps at most MENTIONS_PER_TEXT', () => {
    const text = Array.from({ length: MENTIONS_PER_TEXT + 5 }, (_, i) => `@member${i}`).join(' ');
    const handles = mentionedHandles(text);
    expect(handles).toHaveLength(MENTIONS_PER_TEXT);
    expect(handles[0]).toBe('member0');
  });
});

describe('splitMentions', () => {
  it('makes parts of the known handles only, keeping the text as typed', () => {
    expect(splitMentions('Hi @Asha and @nobody, bye @asha.', ['asha'])).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'mention', text: '@Asha', handle: 'asha' },
      { kind: 'text', text: ' and @nobody, bye ' },
      { kind: 'mention', text: '@asha', handle: 'asha' },
      { kind: 'text', text: '.' },
    ]);
  });
  it('gives the whole text back when nothing is mentioned', () => {
    expect(splitMentions('mail asha@example.com', ['asha'])).toEqual([{ kind: 'text', text: 'mail asha@example.com' }]);
    expect(splitMentions('', ['asha'])).toEqual([]);
  });
});
