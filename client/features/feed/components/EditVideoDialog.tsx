import { useId, useState, type FormEvent, type RefObject } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from '#client/ui/icons';
import { focusBackTo } from '#client/ui/lazy-piece';
import { toast } from '#client/ui/toast';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import { videoTextProblem } from '#sync/mutations/edit-video';
import { VIDEO_DESCRIPTION_MAX, VIDEO_TITLE_MAX } from '#sync/protocol/limits';
import type { FeedCard } from './types';
import './edit-video.css';

/** The dialog opens on its Title field, where the member starts typing (not on its Close button). */
function focusTitle(e: Event) {
  e.preventDefault();
  (e.currentTarget as HTMLElement | null)?.querySelector('input')?.focus();
}

/** What opens the dialog (EditVideoAction.tsx): its card's video, and the button focus goes back to. */
export interface EditVideoDialogProps {
  video: FeedCard;
  open: boolean;
  onOpenChange(open: boolean): void;
  opener: RefObject<HTMLButtonElement | null>;
}

/**
 * The owner's Edit dialog, with the upload dialog's Title and Description fields and limits. The
 * edit is queued (editVideo) and the card shows it at once, offline too; a text the rules refuse is
 * said here, in their words, before anything is queued. Loaded on the first Edit (with Radix): the
 * cards' first screen has only its button, no Radix Trigger, so focus goes back to it here.
 */
export function EditVideoDialog({ video, open, onOpenChange, opener }: EditVideoDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content edit-video-dialog"
          aria-describedby={undefined}
          onOpenAutoFocus={focusTitle}
          onCloseAutoFocus={focusBackTo(opener)}
        >
          <div className="dialog-head">
            <Dialog.Title>Edit Video</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          {/* Mounted while open: each opening starts from the card's texts. */}
          {open ? <EditVideoForm video={video} onDone={() => onOpenChange(false)} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function EditVideoForm({ video, onDone }: { video: FeedCard; onDone(): void }) {
  const engine = useSyncEngine();
  const [title, setTitle] = useState(video.title);
  const [description, setDescription] = useState(video.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { title: useId(), description: useId(), error: useId() };
  // The rules name their field first ("The description ..."); every other refusal is the title's.
  const onDescription = error?.startsWith('The description') ?? false;
  const describedBy = (mine: boolean) => (error && mine ? ids.error : undefined);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const texts = { title: title.trim(), description: description.trim() };
    const problem = videoTextProblem(texts.title, texts.description);
    if (problem || !engine) return setError(problem ?? 'Please sign in again to edit this video.');
    setBusy(true);
    engine.mutate('editVideo', { videoId: video.id, ...texts }).then(
      () => {
        toast.success('Video Updated');
        onDone();
      },
      (err: unknown) => {
        setBusy(false);
        setError(err instanceof Error ? err.message : 'Something went wrong');
      },
    );
  };

  return (
    <form className="form upload-form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor={ids.title}>Title</label>
        <input
          id={ids.title}
          value={title}
          maxLength={VIDEO_TITLE_MAX}
          disabled={busy}
          placeholder="Enter video title"
          aria-invalid={error && !onDescription ? true : undefined}
          aria-describedby={describedBy(!onDescription)}
          onChange={(e) => {
            setTitle(e.target.value);
            setError(null);
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.description}>Description (optional)</label>
        <textarea
          id={ids.description}
          value={description}
          maxLength={VIDEO_DESCRIPTION_MAX}
          rows={3}
          disabled={busy}
          placeholder="Describe your video"
          aria-invalid={error && onDescription ? true : undefined}
          aria-describedby={describedBy(onDescription)}
          onChange={(e) => {
            setDescription(e.target.value);
            setError(null);
          }}
        />
      </div>
      {error ? (
        <p id={ids.error} className="notice error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="edit-video-actions">
        <Dialog.Close asChild>
          <button type="button" className="button">
            Cancel
          </button>
        </Dialog.Close>
        <button type="submit" className="button primary" disabled={busy}>
          Save
        </button>
      </div>
    </form>
  );
}
