import { useEffect, useMemo, useRef } from 'react';
import { useCanGoBack, useNavigate, useParams, useRouter, useSearch } from '@tanstack/react-router';
import { useSession } from '#client/lib/session';
import { Spinner } from '#client/ui/Spinner';
import { useReportDialog } from '#client/ui/safety/useReportDialog';
import { useFeedActions } from '../api/useFeedActions';
import { useCommentsDialog } from '../components/useCommentsDialog';
import { Viewer } from './Viewer';
import { parseWatchList } from './watch-list';
import { useWatchList } from './useWatchList';
import './viewer.css';

/** Pages read past the first while looking for the video a link names, before saying it is not there. */
const PAGES_TO_FIND = 5;

/** /watch/{videoId}?list=…: the full-screen viewer over the list the member came from (docs/pwa.md, "Viewer"). */
export function ViewerPage() {
  const { videoId } = useParams({ from: '/member/watch/$videoId' });
  const { list: listName } = useSearch({ from: '/member/watch/$videoId' });
  const session = useSession();
  const userId = session.status === 'signedIn' ? session.user.id : '';
  const comments = useCommentsDialog();
  const report = useReportDialog();
  const actions = useFeedActions(comments.open, report.open);
  const list = useMemo(() => parseWatchList(listName), [listName]);
  const watch = useWatchList(list);
  const close = useClose();

  // The address follows the video in view: the one the viewer opened at is the first it named.
  const opened = useRef(videoId);
  const start = watch.items.findIndex((v) => v.id === opened.current);
  const pagesRead = useRef(0);
  const looking = start < 0 && watch.hasMore && pagesRead.current < PAGES_TO_FIND;
  const loadMore = useRef(watch.loadMore);
  loadMore.current = watch.loadMore;
  useEffect(() => {
    if (!looking || watch.loading) return;
    pagesRead.current += 1;
    loadMore.current();
  }, [looking, watch.loading, watch.items.length]);

  let body;
  if (start >= 0)
    body = <Viewer items={watch.items} hasMore={watch.hasMore} loadMore={watch.loadMore} start={start} userId={userId} actions={actions} onClose={close} />;
  else if (watch.loading || looking) body = <Spinner label="Loading videos" />;
  else body = <ViewerProblem failed={watch.failed} onClose={close} />;
  return (
    <>
      <div className="viewer-page">{body}</div>
      {comments.dialog}
      {report.dialog}
    </>
  );
}

/** Back to where the member was; a viewer opened from a link has nowhere to go back to but the feed. */
function useClose(): () => void {
  const canGoBack = useCanGoBack();
  const router = useRouter();
  const navigate = useNavigate();
  return () => (canGoBack ? router.history.back() : void navigate({ to: '/home' }));
}

function ViewerProblem({ failed, onClose }: { failed: boolean; onClose(): void }) {
  return (
    <div className="viewer-problem" role="alert">
      <p>{failed ? 'Could not fetch videos.' : 'This video is not available.'}</p>
      <button type="button" className="button primary" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
