import { describe, expect, it } from 'vitest';
import { cardInView, loadModeFor } from './load-mode';

describe('which card preloads', () => {
  it('the card in view and the next one buffer a segment; two more show posters; the rest nothing', () => {
    const modes = Array.from({ length: 8 }, (_, i) => loadModeFor(i, 2, false));
    expect(modes).toEqual(['none', 'poster', 'preload', 'preload', 'poster', 'none', 'none', 'none']);
  });

  it('data saver preloads nothing, posters only', () => {
    const modes = Array.from({ length: 6 }, (_, i) => loadModeFor(i, 0, true));
    expect(modes).toEqual(['poster', 'poster', 'poster', 'none', 'none', 'none']);
  });

  it('the card in view is the one showing most of itself', () => {
    expect(cardInView(new Map())).toBe(-1);
    expect(
      cardInView(
        new Map([
          [3, 0.2],
          [4, 0.9],
          [5, 0.1],
        ]),
      ),
    ).toBe(4);
    expect(
      cardInView(
        new Map([
          [7, 0.5],
          [6, 0.5],
        ]),
      ),
    ).toBe(6);
    expect(cardInView(new Map([[2, 0]]))).toBe(-1);
  });
});
