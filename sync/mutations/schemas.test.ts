import { describe, expect, it } from 'vitest';
import { parseMutation } from './parse-mutation';

describe('parseMutation', () => {
  it('trims comments and names and accepts the catalogue', () => {
    const r = parseMutation('addComment', { commentId: 'c1', videoId: 'v1', content: '  hi  ' });
    expect(r).toEqual({ ok: true, mutation: { name: 'addComment', args: { commentId: 'c1', videoId: 'v1', content: 'hi' } } });
    const n = parseMutation('updateProfileName', { name: ' Ann ' });
    expect(n.ok && n.mutation.args).toEqual({ name: 'Ann' });
  });
  it('refuses whitespace-only and oversized text, bad ids, extra fields and unknown names', () => {
    const code = (name: string, args: unknown) => {
      const r = parseMutation(name, args);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(code('addComment', { commentId: 'c1', videoId: 'v1', content: ' \n\t ' })).toBe('invalid_args');
    expect(code('addComment', { commentId: 'c1', videoId: 'v1', content: 'x'.repeat(1001) })).toBe('invalid_args');
    expect(code('addComment', { commentId: 'c1', videoId: 'v1', content: 'x'.repeat(1000) })).toBe('ok');
    expect(code('updateProfileName', { name: 'x'.repeat(81) })).toBe('invalid_args');
    expect(code('like', { videoId: '../etc' })).toBe('invalid_args');
    expect(code('like', { videoId: 'v1', userId: 'someone' })).toBe('invalid_args');
    expect(code('like', null)).toBe('invalid_args');
    expect(code('recordView', { videoId: 'v1', watchedMs: -1 })).toBe('invalid_args');
    expect(code('recordView', { videoId: 'v1', watchedMs: 1.5 })).toBe('invalid_args');
    expect(code('__proto__', {})).toBe('unknown_mutation');
    expect(code('toString', {})).toBe('unknown_mutation');
  });
});
