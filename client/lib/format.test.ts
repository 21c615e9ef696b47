import { describe, expect, it } from 'vitest';
import { formatDate } from './format';

describe('formatDate', () => {
  it('writes the date as en-US does, in the local time zone', () => {
    for (const ms of [0, 1_764_400_000_000, Date.UTC(2026, 1, 28, 23, 59), Date.UTC(2024, 11, 31, 12)]) {
      expect(formatDate(ms)).toBe(new Date(ms).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }));
    }
    expect(formatDate('2026-11-29T10:00:00.000Z')).toBe(
      new Date('2026-11-29T10:00:00.000Z').toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
    );
  });

  it('leaves an unreadable date empty', () => {
    expect(formatDate('not a date')).toBe('');
  });
});
