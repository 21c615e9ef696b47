import { useRef } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from '#client/ui/icons';
import { CommentsBody } from './CommentsBody';
import { OWNS_ESCAPE } from './CommentComposer';
import '../comments.css';

interface Props {
  /** The video's owner (`user_id`) may pin and delete its comments. */
  video: { id: string; title: string; user_id?: string } | null;
  onClose(): void;
}

/** The comments dialog of the product's copy: the comments of one video with their threads, and a box to add one (blank text ignored). */
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
          // Escape closes the @ list or cancels a reply first; only then the dialog.
          onEscapeKeyDown={(e) => {
            if (e.target instanceof Element && e.target.closest(`[${OWNS_ESCAPE}="true"]`)) e.preventDefault();
          }}
        >
          <div className="dialog-head">
            <Dialog.Title>Comments</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">{video ? `Comments on ${video.title}` : 'Comments'}</Dialog.Description>
          {video ? <CommentsBody videoId={video.id} ownerId={video.user_id ?? null} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
