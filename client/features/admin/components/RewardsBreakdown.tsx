import { useState } from 'react';
import { toast } from 'sonner';
import { useAdminActions, useRewardsBreakdown, type RewardsBreakdownEntry } from '../api';
import { Spinner } from '#client/ui/Spinner';
import { formatDate } from '../format';
import { messageOf } from '#client/lib/http/api-error';

const confirmVoid = (name: string) =>
  `Void ${name}'s points for this period? Their points, and the points their likes, comments and views gave others, stop counting until the next distribution. This cannot be undone.`;

const rank = (r: number | null) => (r === null ? '–' : `#${r}`);

function LeaderRow({ entry, busy, onVoid }: { entry: RewardsBreakdownEntry; busy: boolean; onVoid(e: RewardsBreakdownEntry): void }) {
  const { creator: c, viewer: v } = entry;
  return (
    <tr data-user-id={entry.user_id}>
      <th scope="row">{entry.user_name}</th>
      <td>
        {rank(c.rank)} · {c.points}
      </td>
      <td>{c.likes_received}</td>
      <td>{c.commenters}</td>
      <td>
        {rank(v.rank)} · {v.points}
      </td>
      <td>{v.likes_given}</td>
      <td>{v.comments_given}</td>
      <td>{v.views}</td>
      <td>{v.capped}</td>
      <td className="row-actions">
        <button
          type="button"
          className="button small danger"
          disabled={busy}
          aria-busy={busy}
          onClick={() => onVoid(entry)}
          aria-label={`Void ${entry.user_name}'s points`}
        >
          Void points
        </button>
      </td>
    </tr>
  );
}

/**
 * Where each leader's points come from before prizes are paid (creator: likes received, distinct
 * commenters; viewer: likes given, videos commented on, views, and what the daily cap held back),
 * and voiding a member's points for the period, after a confirmation.
 */
export function RewardsBreakdown() {
  const breakdown = useRewardsBreakdown();
  const actions = useAdminActions();
  const [working, setWorking] = useState<string | null>(null);

  const onVoid = async (e: RewardsBreakdownEntry) => {
    if (!window.confirm(confirmVoid(e.user_name))) return;
    setWorking(e.user_id);
    try {
      await actions.voidPoints(e.user_id);
      toast.success('Points voided', { description: `${e.user_name}'s points no longer count this period.` });
    } catch (err) {
      toast.error('Void Failed', { description: messageOf(err) });
    } finally {
      setWorking(null);
    }
  };

  const data = breakdown.data;
  return (
    <section aria-labelledby="rewards-breakdown-title" className="admin-subsection rewards-breakdown">
      <h2 id="rewards-breakdown-title">Points by source</h2>
      {breakdown.error ? (
        <p className="notice error" role="alert">
          {breakdown.error}
        </p>
      ) : null}
      {!data ? (
        breakdown.error ? null : (
          <Spinner label="Loading the points breakdown" />
        )
      ) : (
        <>
          <p className="hint">Viewer points are capped at {data.viewer_daily_points_cap} per member per day (change it in Settings).</p>
          {data.leaders.length === 0 ? (
            <p className="muted">Nobody has points in this period yet.</p>
          ) : (
            <div className="table-wrap">
              <table className="admin-table">
                <caption className="sr-only">Leaders and where their points come from</caption>
                <thead>
                  <tr>
                    <th scope="col">Member</th>
                    <th scope="col">Best Users</th>
                    <th scope="col">Likes received</th>
                    <th scope="col">Commenters</th>
                    <th scope="col">Best Viewers</th>
                    <th scope="col">Likes given</th>
                    <th scope="col">Videos commented</th>
                    <th scope="col">Views</th>
                    <th scope="col">Over the cap</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {data.leaders.map((e) => (
                    <LeaderRow key={e.user_id} entry={e} busy={working === e.user_id} onVoid={(x) => void onVoid(x)} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {data.voided.length ? (
            <>
              <h3>Voided this period</h3>
              <ul className="voided-list">
                {data.voided.map((v) => (
                  <li key={v.user_id}>
                    {v.user_name} <span className="muted">({formatDate(v.created_at)})</span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
