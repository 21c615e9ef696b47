import { describe, expect, it } from 'vitest';
import { timeAgo } from './relative-time';

describe('timeAgo', () => {
  const now = Date.parse('2026-05-10T12:00:00Z');
  it('says how long ago, in the largest whole unit', () => {
    expect(timeAgo('2026-05-10T11:59:30Z', now)).toBe('just now');
    expect(timeAgo('2026-05-10T11:55:00Z', now)).toMatch(/5 minutes ago/);
    expect(timeAgo('2026-05-10T09:00:00Z', now)).toMatch(/3 hours ago/);
    expect(timeAgo('2026-05-09T12:00:00Z', now)).toMatch(/yesterday|1 day ago/);
    expect(timeAgo('2026-04-19T12:00:00Z', now)).toMatch(/3 weeks ago/);
  });
  it('says nothing for a date it cannot read', () => {
    expect(timeAgo('not a date', now)).toBe('');
  });
});
