import { useId } from 'react';
import type { LeaderboardEntry } from '../api';
import { formatRupees } from '../format';

interface Props {
  title: string;
  entries: LeaderboardEntry[];
  emptyText: string;
  /** The signed-in member's id, to mark their row. */
  meId: string | null;
  pointsLabel?: string;
}

/** One board: rank, name, points and prize per row, or the empty text of the product's copy. */
export function LeaderboardTable({ title, entries, emptyText, meId, pointsLabel = 'Points' }: Props) {
  const headingId = useId();
  return (
    <section className="card leaderboard" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {entries.length === 0 ? (
        <p className="empty-text">{emptyText}</p>
      ) : (
        <table aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Name</th>
              <th scope="col">{pointsLabel}</th>
              <th scope="col">Prize</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.user_id} className={e.user_id === meId ? 'is-me' : undefined} aria-current={e.user_id === meId ? 'true' : undefined}>
                <td className="rank">#{e.rank}</td>
                <td className="name">{e.user_name}</td>
                <td className="points">{e.points}</td>
                <td className="prize">{formatRupees(e.prize_rupees)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
