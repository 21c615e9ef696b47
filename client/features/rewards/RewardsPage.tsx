import { useNavigate } from '@tanstack/react-router';
import { useOnline } from '#client/lib/useOnline';
import { Spinner } from '#client/ui/Spinner';
import { useLeaderboards } from './api';
import { LastWinners } from './components/LastWinners';
import { LeaderboardTable } from './components/LeaderboardTable';
import { MyStanding } from './components/MyStanding';
import { formatAsOf, formatDistributionDate } from './format';
import './rewards.css';

/** /rewards (docs/rewards.md, "Reading"): the next date, both leaderboards with prizes, the member's own place, the last winners. */
export function RewardsPage() {
  const navigate = useNavigate();
  const online = useOnline();
  const { data, loading } = useLeaderboards();

  return (
    <section className="rewards-page" aria-labelledby="rewards-title">
      <button type="button" className="button back-button" onClick={() => void navigate({ to: '/home' })}>
        <span aria-hidden="true">←</span> Back
      </button>
      <h1 id="rewards-title">Rewards</h1>
      {loading || !data ? (
        online || loading ? (
          <Spinner label="Loading the leaderboards" />
        ) : (
          <p className="notice" role="status">
            You are offline. The leaderboards will appear once you are back online.
          </p>
        )
      ) : (
        <>
          <p className="distribution-date">
            Next distribution: <strong data-testid="distribution-date">{formatDistributionDate(data.distribution_date)}</strong>
          </p>
          {!online && (
            <p className="notice as-of" role="status">
              You are offline. Standings as of {formatAsOf(data.as_of)}.
            </p>
          )}
          <MyStanding creator={data.me.creator} viewer={data.me.viewer} />
          <LeaderboardTable
            title="Best Users"
            entries={data.best_users}
            emptyText="No user data yet. Start uploading videos to appear here!"
            meId={data.viewer_id}
          />
          <LeaderboardTable
            title="Best Viewers"
            entries={data.best_viewers}
            emptyText="No viewer data yet. Start interacting with videos!"
            meId={data.viewer_id}
          />
          {data.last_distribution && <LastWinners distribution={data.last_distribution} />}
        </>
      )}
    </section>
  );
}
