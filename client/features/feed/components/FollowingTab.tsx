import type { PersonItem } from '#client/lib/people';
import { usePagedRead } from '#client/lib/usePagedRead';
import { PersonList } from '#client/ui/people/PersonList';
import { Spinner } from '#client/ui/Spinner';
import { useFollowingFeed } from '../api/useFollowingFeed';
import { FeedList } from './FeedList';
import type { FeedActions } from './types';

interface Props {
  userId: string;
  actions: FeedActions;
}

/** The Following tab: the videos of the people the member follows, or who to follow when nobody yet. */
export function FollowingTab({ userId, actions }: Props) {
  const feed = useFollowingFeed();
  if (feed.followed === undefined) return <Spinner label="Loading videos" />;
  if (feed.followed === 0) return <WhoToFollow meId={userId} intro="Follow creators to see their new videos here." />;
  if (feed.loading && feed.items.length === 0) return <Spinner label="Loading videos" />;
  if (feed.errorStatus !== null && feed.items.length === 0) {
    return (
      <p className="empty-state" role="alert">
        {feed.errorStatus === 0 ? "You're offline, and these videos were not saved on this device." : 'Could not fetch videos.'}
      </p>
    );
  }
  if (feed.items.length === 0) {
    return (
      <section className="empty-state" aria-labelledby="following-empty">
        <h2 id="following-empty">No videos yet</h2>
        <p className="muted">The people you follow have not posted any videos yet.</p>
      </section>
    );
  }
  return <FeedList items={feed.items} hasMore={feed.hasMore} loadMore={feed.loadMore} userId={userId} actions={actions} watchList="following" />;
}

/** GET /api/people/suggested: the most-followed creators, each with a Follow button. */
function WhoToFollow({ meId, intro }: { meId: string; intro: string }) {
  const read = usePagedRead<PersonItem>('/api/people/suggested');
  return (
    <section className="who-to-follow" aria-labelledby="who-to-follow">
      <h2 id="who-to-follow">Who to follow</h2>
      <p className="muted">{intro}</p>
      {read.loading && read.items.length === 0 ? (
        <Spinner label="Loading people" />
      ) : read.error && read.items.length === 0 ? (
        <p className="empty-text" role="alert">
          {read.error.status === 0 ? "You're offline. Suggestions will show when you are back online." : 'Could not load suggestions.'}
        </p>
      ) : read.items.length === 0 ? (
        <p className="empty-text">No one to suggest yet.</p>
      ) : (
        <PersonList people={read.items} meId={meId} label="Suggested people" />
      )}
    </section>
  );
}
