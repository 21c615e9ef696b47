import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { ClockIcon, HeartIcon } from '#client/ui/icons';
import { formatDate, isoDate } from '#client/lib/format';
import { MentionText } from './MentionText';
import { canDelete, canPin, canModerateAuthor, type CommentView, type CommentViewer } from './types';

export const DELETE_COMMENT_CONFIRM = 'Are you sure you want to delete this comment? This action cannot be undone.';

export interface CommentHandlers {
  setLike(c: CommentView, liked: boolean): void;
  reply(c: CommentView): void;
  remove(c: CommentView): void;
  setPinned(c: CommentView, pinned: boolean): void;
  report(c: CommentView): void;
  /** Blocks the author once the member confirms. */
  block(c: CommentView): void;
  setMuted(c: CommentView, muted: boolean): void;
}

const authorName = (c: CommentView) => c.name.trim() || 'Unknown User';

/** One comment: its author, time and text, and what the viewer may do with it. A tombstone only says so. */
export function CommentItem({ comment: c, viewer, on }: { comment: CommentView; viewer: CommentViewer; on: CommentHandlers }) {
  const [revealed, setRevealed] = useState(false);
  if (c.deleted) return <p className="comment-text comment-deleted">Comment deleted</p>;
  if (c.muted && !revealed) return <MutedComment onShow={() => setRevealed(true)} />;
  return (
    <>
      <div className="comment-head">
        {c.handle ? (
          <Link to="/@{$handle}" params={{ handle: c.handle }} className="author">
            {authorName(c)}
          </Link>
        ) : (
          <span className="author">{authorName(c)}</span>
        )}
        <time dateTime={isoDate(c.created_at)}>{formatDate(c.created_at)}</time>
        {c.pinned && c.parent_id === null ? <span className="pinned-mark">Pinned</span> : null}
        {c.pending ? (
          <span className="pending-badge" title="Waiting to sync">
            <ClockIcon size={12} /> Pending
          </span>
        ) : null}
      </div>
      <p className="comment-text">
        {c.reply_to_handle ? (
          <>
            <Link to="/@{$handle}" params={{ handle: c.reply_to_handle }} className="reply-to">
              @{c.reply_to_handle}
            </Link>{' '}
          </>
        ) : null}
        <MentionText text={c.content} mentions={c.mentions} />
      </p>
      <CommentActions comment={c} viewer={viewer} on={on} />
    </>
  );
}

/** A muted member's comment, collapsed until the member asks to see it (docs/decisions/0024-safety.md). */
function MutedComment({ onShow }: { onShow(): void }) {
  return (
    <p className="comment-text muted-comment">
      Comment from a muted account{' '}
      <button type="button" className="comment-action" onClick={onShow}>
        Show
      </button>
    </p>
  );
}

/** Report, mute and block the author: for another member's comment, signed in. */
function AuthorActions({ comment: c, on }: { comment: CommentView; on: CommentHandlers }) {
  return (
    <>
      <button type="button" className="comment-action" aria-haspopup="dialog" aria-label="Report comment" onClick={() => on.report(c)}>
        Report
      </button>
      {c.handle ? (
        <>
          <button type="button" className="comment-action" aria-label={c.muted ? 'Unmute' : `Mute @${c.handle}`} onClick={() => on.setMuted(c, !c.muted)}>
            {c.muted ? 'Unmute' : 'Mute'}
          </button>
          <button type="button" className="comment-action danger" aria-label={`Block @${c.handle}`} onClick={() => on.block(c)}>
            Block
          </button>
        </>
      ) : null}
    </>
  );
}

function CommentActions({ comment: c, viewer, on }: { comment: CommentView; viewer: CommentViewer; on: CommentHandlers }) {
  const signedIn = viewer.userId !== null;
  return (
    <div className="comment-actions">
      <span className="comment-like">
        <button
          type="button"
          className={`comment-action${c.liked_by_me ? ' liked' : ''}`}
          aria-pressed={c.liked_by_me}
          aria-label={c.liked_by_me ? 'Unlike comment' : 'Like comment'}
          disabled={!signedIn}
          onClick={() => on.setLike(c, !c.liked_by_me)}
        >
          <HeartIcon size={16} fill={c.liked_by_me ? 'currentColor' : 'none'} />
        </button>
        {c.likes_count > 0 ? (
          <span className="like-count">
            {c.likes_count}
            <span className="sr-only">{c.likes_count === 1 ? ' like' : ' likes'}</span>
          </span>
        ) : null}
      </span>
      {signedIn ? (
        <button type="button" className="comment-action" aria-label={`Reply to ${authorName(c)}`} onClick={() => on.reply(c)}>
          Reply
        </button>
      ) : null}
      {canPin(c, viewer) ? (
        <button type="button" className="comment-action" aria-label={c.pinned ? 'Unpin comment' : 'Pin comment'} onClick={() => on.setPinned(c, !c.pinned)}>
          {c.pinned ? 'Unpin' : 'Pin'}
        </button>
      ) : null}
      {canModerateAuthor(c, viewer) ? <AuthorActions comment={c} on={on} /> : null}
      {canDelete(c, viewer) ? (
        <button type="button" className="comment-action danger" aria-label="Delete comment" onClick={() => on.remove(c)}>
          Delete
        </button>
      ) : null}
    </div>
  );
}
