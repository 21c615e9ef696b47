import { useRef, useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Link } from '@tanstack/react-router';
import { toast } from 'sonner';
import { CloseIcon, ClockIcon } from '#client/ui/icons';
import { Spinner } from '#client/ui/Spinner';
import { formatDate, isoDate } from '#client/lib/format';
import { useCommentsData, useSendComment } from '../useCommentsData';
import { MAX_COMMENT_LENGTH } from '#sync/mutations/limits';

interface Props {
  video: { id: string; title: string } | null;
  onClose(): void;
}

/** The comments dialog of the product's copy: the comments of one video, newest first, and a box to add one (blank text ignored). */
export function CommentsDialog({ video, onClose }: Props) {
  const open = video !== null;
  // Opened from a card's button, not a Radix Trigger: remember it so focus goes back there on close.
  const opener = useRef<HTMLElement | null>(null);
  if (open && !opener.current && document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
  return (
    <Dialog.Root open={open} onOpenChange={(o) => (o ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content comments-dialog"
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            opener.current?.focus();
            opener.current = null;
          }}
        >
          <div className="dialog-head">
            <Dialog.Title>Comments</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">{video ? `Comments on ${video.title}` : 'Comments'}</Dialog.Description>
          {video ? <CommentsBody videoId={video.id} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function CommentsBody({ videoId }: { videoId: string }) {
  const { comments, loading } = useCommentsData(videoId);
  const send = useSendComment();
  const [text, setText] = useState('');

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const content = text.trim();
    if (!content) return;
    setText('');
    send(videoId, content).catch((err: unknown) => {
      toast.error('Comment Failed', { description: err instanceof Error ? err.message : 'Something went wrong' });
      setText(content);
    });
  };

  return (
    <>
      <div className="comments-list" aria-live="polite">
        {loading && comments.length === 0 ? (
          <Spinner label="Loading comments" />
        ) : comments.length === 0 ? (
          <p className="empty-text">No comments yet. Be the first to comment!</p>
        ) : (
          <ul aria-label="Comments">
            {comments.map((c) => (
              <li key={c.id} className="comment">
                <div className="comment-head">
                  {c.handle ? (
                    <Link to="/@{$handle}" params={{ handle: c.handle }} className="author">
                      {c.name?.trim() || 'Unknown User'}
                    </Link>
                  ) : (
                    <span className="author">{c.name?.trim() || 'Unknown User'}</span>
                  )}
                  <time dateTime={isoDate(c.created_at)}>{formatDate(c.created_at)}</time>
                  {c.pending ? (
                    <span className="pending-badge" title="Waiting to sync">
                      <ClockIcon size={12} /> Pending
                    </span>
                  ) : null}
                </div>
                <p className="comment-text">{c.content}</p>
              </li>
            ))}
          </ul>
        )}
      </div>
      <form className="comment-form" onSubmit={onSubmit}>
        <input
          aria-label="Add a comment"
          placeholder="Add a comment..."
          value={text}
          maxLength={MAX_COMMENT_LENGTH}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="button primary">
          Post
        </button>
      </form>
    </>
  );
}
