import { describe, expect, it } from 'vitest';
import { formatDistributionDate, formatRupees } from './format';

describe('rewards formatting', () => {
  it('shows the next distribution date in long US format, the same day in every time zone', () => {
    expect(formatDistributionDate('2026-12-25')).toBe('December 25, 2026');
    expect(formatDistributionDate('2027-01-01')).toBe('January 1, 2027');
  });

  it("says 'To be announced' without a date, and shows text that is not a date as written", () => {
    expect(formatDistributionDate(null)).toBe('To be announced');
    expect(formatDistributionDate('')).toBe('To be announced');
    expect(formatDistributionDate('after Diwali')).toBe('after Diwali');
  });

  it('writes prizes in rupees with Indian digit grouping', () => {
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(5000)).toBe('₹5,000');
    expect(formatRupees(150000)).toBe('₹1,50,000');
  });
});
