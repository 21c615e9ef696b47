import { useRef } from 'react';
import { PencilIcon } from '#client/ui/icons';
import { lazyPiece, PieceBoundary } from '#client/ui/lazy-piece';
import { usePieceDialog } from '#client/ui/useDialogTarget';
import type { EditVideoDialogProps } from './EditVideoDialog';
import type { FeedCard } from './types';

const { Piece: EditVideoDialog, retry: retryEditVideoDialog } = lazyPiece<EditVideoDialogProps>(() =>
  import('./EditVideoDialog').then((m) => ({ default: m.EditVideoDialog })),
);

/**
 * The owner's Edit on their card: the pencil button, and the dialog (EditVideoDialog.tsx) from its
 * first tap on, its code fetched then: Radix stays off the feed's first screen.
 */
export function EditVideoAction({ video }: { video: FeedCard }) {
  const { open, used, setOpen, onFailed } = usePieceDialog(retryEditVideoDialog);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label={`Edit video ${video.title}`}
        title="Edit video"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <PencilIcon />
      </button>
      {used ? (
        <PieceBoundary what="the edit form" onFailed={onFailed}>
          <EditVideoDialog video={video} open={open} onOpenChange={setOpen} opener={button} />
        </PieceBoundary>
      ) : null}
    </>
  );
}
