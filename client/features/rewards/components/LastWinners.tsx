import type { DistributionSummary, LeaderboardEntry } from '../api';
import { formatRupees } from '../format';

function Winners({ title, entries }: { title: string; entries: LeaderboardEntry[] }) {
  return (
    <div className="winners-group">
      <h3>{title}</h3>
      {entries.length === 0 ? (
        <p className="muted">No winners.</p>
      ) : (
        <ol className="winners">
          {entries.map((e) => (
            <li key={`${e.rank}-${e.user_id}`}>
              <span className="rank">#{e.rank}</span> <span className="name">{e.user_name}</span>{' '}
              <span className="muted">
                {e.points} pts · {formatRupees(e.prize_rupees)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** The winners of the newest distribution, as recorded then (names and prizes of that moment). */
export function LastWinners({ distribution }: { distribution: DistributionSummary }) {
  const when = new Date(distribution.created_at).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
  return (
    <section className="card last-winners" aria-label="Last winners">
      <h2>Last winners</h2>
      <p className="muted">Distributed on {when}</p>
      <Winners title="Best Users" entries={distribution.best_users} />
      <Winners title="Best Viewers" entries={distribution.best_viewers} />
    </section>
  );
}
