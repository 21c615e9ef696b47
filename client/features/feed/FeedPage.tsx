import { useEffect, useRef, useState } from 'react';
import { preload } from 'react-dom';
import { toast } from '#client/ui/toast';
import { useSession } from '#client/lib/session';
import { LazyAdSlot } from '#client/ui/ads/LazyAdSlot';
import { useOpenUpload } from '#client/lib/upload-context';
import { Spinner } from '#client/ui/Spinner';
import { UploadIcon } from '#client/ui/icons';
import { useFeedData, useProfileName } from './useFeedData';
import { useFeedActions } from './api';
import { FeedList } from './components/FeedList';
import type { FeedActions } from './components/types';
import { downloadAhead } from '#client/lib/offline-media';
import { Tabs, type TabDef } from '#client/ui/Tabs';
import { useCommentsDialog } from './components/useCommentsDialog';
import { useReportDialog } from '#client/ui/safety/useReportDialog';
import { FollowingTab } from './components/FollowingTab';
import { markFirstScreenDrawn } from '#client/lib/after-first-screen';

type FeedTab = 'forYou' | 'following';
const TABS: Array<TabDef<FeedTab>> = [
  { key: 'forYou', label: 'For you' },
  { key: 'following', label: 'Following' },
];

/** /home: the welcome line, then the tabs For you (every member's videos) and Following (docs/pwa.md, "Feed"). */
export function FeedPage() {
  const session = useSession();
  const user = session.status === 'signedIn' ? session.user : null;
  const name = useProfileName(user?.name ?? '');
  const comments = useCommentsDialog();
  const report = useReportDialog();
  const actions = useFeedActions(comments.open, report.open);
  const [tab, setTab] = useState<FeedTab>('forYou');

  return (
    <div className="feed-page">
      <section className="welcome" aria-labelledby="welcome-title">
        <h1 id="welcome-title">Welcome, {name || 'there'}!</h1>
        <p className="muted">Discover the latest short videos from the community.</p>
      </section>
      <LazyAdSlot placement="home" />
      <Tabs<FeedTab> className="feed-tabs" tabs={TABS} selected={tab} onSelect={setTab} label="Feeds">
        {tab === 'forYou' ? <ForYou userId={user?.id ?? ''} actions={actions} /> : <FollowingTab userId={user?.id ?? ''} actions={actions} />}
      </Tabs>
      {comments.dialog}
      {report.dialog}
    </div>
  );
}

/** Every member's videos from the local copy, as before the tabs. */
function ForYou({ userId, actions }: { userId: string; actions: FeedActions }) {
  const feed = useFeedData();
  const openUpload = useOpenUpload();

  // "Download new videos for offline" (off unless the member turned it on; gated by the connection there).
  // Keyed on the newest card and the count, not on every like's new array.
  const newest = feed.items[0]?.id;
  const itemsRef = useRef(feed.items);
  itemsRef.current = feed.items;
  // Also when a video finishes processing: that changes neither the newest card nor the count.
  const readyCount = feed.items.reduce((n, v) => (v.media_status === 'ready' ? n + 1 : n), 0);
  useEffect(() => {
    if (newest) void downloadAhead(itemsRef.current);
  }, [newest, feed.items.length, readyCount]);

  // The first card's poster is the first screen's largest picture: fetched at once and first, not
  // when the player asks for it (docs/decisions/0028-the-window-in-pages.md).
  const firstPoster = feed.items[0]?.poster_url;
  if (firstPoster) preload(firstPoster, { as: 'image', fetchPriority: 'high' });

  // An empty feed or its error is the whole first screen (a list of cards says so itself: FeedList).
  const settled = !(feed.loading && feed.items.length === 0);
  useEffect(() => {
    if (settled) markFirstScreenDrawn();
  }, [settled]);

  // The product's copy: 'Error' / 'Could not fetch videos.' — once per failure, not on every retry.
  useEffect(() => {
    if (feed.error) toast.error('Error', { id: 'feed-error', description: 'Could not fetch videos.' });
  }, [feed.error]);

  if (feed.loading && feed.items.length === 0) return <Spinner label="Loading videos" />;
  if (feed.error && feed.items.length === 0) {
    return (
      <p className="empty-state" role="alert">
        Could not fetch videos. Retrying…
      </p>
    );
  }
  if (feed.items.length === 0) {
    return (
      <section className="empty-state" aria-labelledby="empty-title">
        <h2 id="empty-title">No videos yet</h2>
        <p className="muted">Be the first to share a short video with the community.</p>
        <button type="button" className="button primary" onClick={openUpload}>
          <UploadIcon /> Upload First Video
        </button>
      </section>
    );
  }
  return <FeedList items={feed.items} hasMore={feed.hasMore} loadMore={feed.loadMore} userId={userId} actions={actions} watchList="feed" />;
}
