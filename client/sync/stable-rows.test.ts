import { describe, expect, it } from 'vitest';
import { reuseUnchanged } from './stable-rows';

describe('reuseUnchanged', () => {
  const a = { id: 'a', likes: 1 };
  const b = { id: 'b', likes: 2 };

  it('keeps the previous object of an unchanged row and takes the new one of a changed row', () => {
    const next = reuseUnchanged(
      [a, b],
      [
        { id: 'a', likes: 1 },
        { id: 'b', likes: 3 },
      ],
    );
    expect(next[0]).toBe(a);
    expect(next[1]).not.toBe(b);
    expect(next[1]).toEqual({ id: 'b', likes: 3 });
  });

  it('returns the previous array when nothing changed', () => {
    const prev = [a, b];
    expect(reuseUnchanged(prev, [{ ...a }, { ...b }])).toBe(prev);
  });

  it('returns a new array for a new order, a removed row or an added field', () => {
    const prev = [a, b];
    expect(reuseUnchanged(prev, [{ ...b }, { ...a }])).toEqual([b, a]);
    expect(reuseUnchanged(prev, [{ ...b }, { ...a }])).not.toBe(prev);
    expect(reuseUnchanged(prev, [{ ...a }])).toEqual([a]);
    const withField = reuseUnchanged(prev, [{ ...a, extra: true }, { ...b }]);
    expect(withField[0]).not.toBe(a);
    expect(withField[1]).toBe(b);
  });
});
