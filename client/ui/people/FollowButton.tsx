import { ClockIcon } from '../icons';
import { useFollowState, useSetFollowing } from './useFollow';
import './people.css';

interface Props {
  userId: string;
  name: string;
  /** What the server said when the page was read, until the device's own record is read. */
  initial?: boolean;
}

/** Follow / Following, named for the person ("Follow Asha", "Unfollow Asha"); a queued change shows Pending. */
export function FollowButton({ userId, name, initial = false }: Props) {
  const state = useFollowState(userId);
  const setFollowing = useSetFollowing();
  const following = state?.following ?? initial;
  return (
    <span className="follow">
      <button
        type="button"
        className={`button ${following ? 'secondary following' : 'primary'}`}
        aria-label={`${following ? 'Unfollow' : 'Follow'} ${name}`}
        onClick={() => setFollowing(userId, !following)}
      >
        {following ? 'Following' : 'Follow'}
      </button>
      {state?.pending ? (
        <span className="pending-badge" title="Waiting to sync">
          <ClockIcon size={14} /> Pending
        </span>
      ) : null}
    </span>
  );
}
