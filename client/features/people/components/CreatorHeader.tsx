import { Link } from '@tanstack/react-router';
import { initialOf, plural } from '#client/lib/format';
import type { CreatorProfile } from '#client/lib/people';
import { FollowButton } from '#client/ui/people/FollowButton';
import { ShareIcon } from '#client/ui/icons';
import type { CreatorCounts } from '../api/counts';
import { CreatorSafety } from './CreatorSafety';

interface Props {
  profile: CreatorProfile;
  counts: CreatorCounts;
  own: boolean;
  /** Signed in: another member's page offers report, mute and block. */
  signedIn: boolean;
  onShare(): void;
}

/** Name, @handle, the three counts, Follow (or Edit profile on one's own page), the share link, and report, mute and block. */
export function CreatorHeader({ profile, counts, own, signedIn, onShare }: Props) {
  return (
    <header className="creator-head">
      <span className="avatar creator-avatar" aria-hidden="true">
        {initialOf(profile.name)}
      </span>
      <div className="creator-id">
        <h1 id="creator-title">{profile.name}</h1>
        <p className="muted creator-handle">@{profile.handle}</p>
        {profile.viewer.followed_by && !own ? <p className="follows-you">Follows you</p> : null}
      </div>
      <dl className="creator-counts" aria-label="Counts">
        <div>
          <dt>Followers</dt>
          <dd data-count="followers">{counts.followers}</dd>
        </div>
        <div>
          <dt>Following</dt>
          <dd data-count="following">{counts.following}</dd>
        </div>
        <div>
          <dt>{counts.videos === 1 ? 'Video' : 'Videos'}</dt>
          <dd data-count="videos">{counts.videos}</dd>
        </div>
      </dl>
      <p className="sr-only" aria-live="polite">
        {plural(counts.followers, 'follower', 'followers')}
      </p>
      <div className="creator-actions">
        {own ? (
          <Link to="/profile" className="button secondary">
            Edit profile
          </Link>
        ) : (
          <FollowButton userId={profile.id} name={profile.name} initial={profile.viewer.following} />
        )}
        <button type="button" className="button secondary" onClick={onShare} aria-label={`Share ${profile.name}'s page`}>
          <ShareIcon size={18} /> Share
        </button>
        {signedIn && !own ? <CreatorSafety profile={profile} /> : null}
      </div>
    </header>
  );
}
