import { useAdminStats } from '../api';

const number = new Intl.NumberFormat('en-IN');

export function StatCards() {
  const { data, error } = useAdminStats();
  const cards = [
    { label: 'Total Users', value: data ? number.format(data.total_users) : '…' },
    { label: 'Total Videos', value: data ? number.format(data.total_videos) : '…' },
    { label: 'Active Users', value: data ? number.format(data.active_users) : '…' },
    { label: 'Revenue (₹)', value: data ? `₹${number.format(data.revenue_rupees)}` : '…' },
    { label: 'Open Reports', value: data ? number.format(data.open_reports) : '…' },
  ];
  return (
    <section aria-label="Statistics" className="stat-cards">
      {cards.map((c) => (
        <div key={c.label} className="stat-card">
          <h2>{c.label}</h2>
          <p className="stat-value" aria-busy={!data}>
            {c.value}
          </p>
        </div>
      ))}
      {error ? (
        <p className="notice error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
