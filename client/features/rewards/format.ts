/**
 * The next distribution date in long US format ('December 25, 2026'), or 'To be announced'.
 * A YYYY-MM-DD date is a calendar day, so it is formatted in UTC: no time zone shifts it a day.
 */
export function formatDistributionDate(value: string | null | undefined): string {
  if (!value) return 'To be announced';
  const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(dayOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', ...(dayOnly ? { timeZone: 'UTC' } : {}) });
}

export function formatRupees(amount: number): string {
  return `₹${amount.toLocaleString('en-IN')}`;
}

export function formatAsOf(ms: number): string {
  return new Date(ms).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}
