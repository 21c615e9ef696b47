import { Spinner } from '#client/ui/Spinner';
import { useThread } from '../api/useThread';
import { CommentItem, type CommentHandlers } from './CommentItem';
import { collapsedThread, viewRepliesLabel } from './thread-view';
import type { CommentView, CommentViewer } from './types';

interface Props {
  videoId: string;
  top: CommentView;
  /** The replies the device holds, oldest first. */
  replies: CommentView[];
  loadedAt: number | null;
  viewer: CommentViewer;
  on: CommentHandlers;
}

/** A top-level comment and its replies: collapsed behind "View N replies", read from the server when expanded. */
export function CommentThread({ videoId, top, replies, loadedAt, viewer, on }: Props) {
  const thread = useThread(videoId, top.id, loadedAt);
  const collapsed = collapsedThread(top, replies, viewer.userId);
  const shown = thread.expanded ? replies : collapsed.shown;
  const listId = `replies-${top.id}`;
  return (
    <li className={`comment${top.pinned ? ' pinned' : ''}`}>
      <CommentItem comment={top} viewer={viewer} on={on} />
      {shown.length > 0 ? (
        <ul className="comment-replies" id={listId} aria-label={`Replies to ${top.deleted ? 'a deleted comment' : top.name.trim() || 'Unknown User'}`}>
          {shown.map((r) => (
            <li key={r.id} className="comment reply">
              <CommentItem comment={r} viewer={viewer} on={on} />
            </li>
          ))}
        </ul>
      ) : null}
      <ThreadControls thread={thread} hidden={collapsed.hidden} someShown={collapsed.shown.length > 0} listId={listId} />
    </li>
  );
}

function ThreadControls({ thread, hidden, someShown, listId }: { thread: ReturnType<typeof useThread>; hidden: number; someShown: boolean; listId: string }) {
  if (!thread.expanded) {
    return hidden > 0 ? (
      <button type="button" className="thread-toggle" aria-expanded={false} aria-controls={someShown ? listId : undefined} onClick={thread.expand}>
        {viewRepliesLabel(hidden, someShown)}
      </button>
    ) : null;
  }
  return (
    <div className="thread-controls">
      {thread.loading ? <Spinner label="Loading replies" /> : null}
      {thread.failed ? (
        <p className="thread-note" role="status">
          Replies could not be loaded.{' '}
          <button type="button" className="thread-toggle" onClick={thread.retry}>
            Try again
          </button>
        </p>
      ) : null}
      {thread.hasMore && !thread.loading ? (
        <button type="button" className="thread-toggle" onClick={thread.loadMore}>
          View more replies
        </button>
      ) : null}
      <button type="button" className="thread-toggle" aria-expanded={true} aria-controls={listId} onClick={thread.collapse}>
        Hide replies
      </button>
    </div>
  );
}
