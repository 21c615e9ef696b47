import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '#client/ui/toast';
import { useSession } from '#client/lib/session';
import { LazyAdSlot } from '#client/ui/ads/LazyAdSlot';
import { useOpenUpload } from '#client/lib/upload-context';
import { Spinner } from '#client/ui/Spinner';
import { UploadIcon } from '#client/ui/icons';
import { useFeedData, useProfileName } from './useFeedData';
import { useFeedActions } from './api';
import { FeedList } from './components/FeedList';
import type { FeedCard } from './components/types';
import { downloadAhead } from '#client/lib/offline-media';

// The feed does not need the dialog (and Radix) to show: it is fetched once the feed is on screen
// (the effect below), off the first load but in before the first tap on a comments button.
const loadCommentsDialog = () => import('../comments/components/comments-dialog-entry');
const CommentsDialog = lazy(loadCommentsDialog);

export function FeedPage() {
  const session = useSession();
  const user = session.status === 'signedIn' ? session.user : null;
  const name = useProfileName(user?.name ?? '');
  const feed = useFeedData();
  const openUpload = useOpenUpload();
  const [commentsFor, setCommentsFor] = useState<FeedCard | null>(null);
  // Mounted from the first opening on, so closing runs Radix's close (focus back to the opener).
  const [commentsUsed, setCommentsUsed] = useState(false);
  const openComments = useCallback((v: FeedCard) => {
    setCommentsUsed(true);
    setCommentsFor(v);
  }, []);
  const actions = useFeedActions(openComments);

  useEffect(() => {
    void loadCommentsDialog().catch(() => undefined);
  }, []);

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

  // The product's copy: 'Error' / 'Could not fetch videos.' — once per failure, not on every retry.
  useEffect(() => {
    if (feed.error) toast.error('Error', { id: 'feed-error', description: 'Could not fetch videos.' });
  }, [feed.error]);

  return (
    <div className="feed-page">
      <section className="welcome" aria-labelledby="welcome-title">
        <h1 id="welcome-title">Welcome, {name || 'there'}!</h1>
        <p className="muted">Discover the latest short videos from the community.</p>
      </section>
      <LazyAdSlot placement="home" />
      {feed.loading && feed.items.length === 0 ? (
        <Spinner label="Loading videos" />
      ) : feed.error && feed.items.length === 0 ? (
        <p className="empty-state" role="alert">
          Could not fetch videos. Retrying…
        </p>
      ) : feed.items.length === 0 ? (
        <section className="empty-state" aria-labelledby="empty-title">
          <h2 id="empty-title">No videos yet</h2>
          <p className="muted">Be the first to share a short video with the community.</p>
          <button type="button" className="button primary" onClick={openUpload}>
            <UploadIcon /> Upload First Video
          </button>
        </section>
      ) : (
        <FeedList items={feed.items} hasMore={feed.hasMore} loadMore={feed.loadMore} userId={user?.id ?? ''} actions={actions} />
      )}
      {commentsUsed ? (
        <Suspense fallback={null}>
          <CommentsDialog video={commentsFor} onClose={() => setCommentsFor(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}
