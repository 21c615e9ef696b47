import { Suspense, useCallback, useRef, useState } from 'react';
import { lazyPiece, PieceBoundary } from '#client/ui/lazy-piece';
import type { EditVideoDialogProps } from './EditVideoDialog';
import type { FeedCard } from './types';

const { Piece: EditVideoDialog, retry: retryEditVideoDialog } = lazyPiece<EditVideoDialogProps>(() =>
  import('./EditVideoDialog').then((m) => ({ default: m.EditVideoDialog })),
);

function PencilIcon() {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </svg>
  );
}

/**
 * The owner's Edit on their card: the pencil button, and the dialog (EditVideoDialog.tsx) from its
 * first tap on, its code fetched then: Radix stays off the feed's first screen.
 */
export function EditVideoAction({ video }: { video: FeedCard }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // Its code did not come (offline on a first visit): said in a toast, and loaded again next time.
  const onFailed = useCallback(() => {
    retryEditVideoDialog();
    setOpen(false);
    setUsed(false);
  }, []);
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
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <PencilIcon />
      </button>
      {used ? (
        <PieceBoundary what="the edit form" onFailed={onFailed}>
          <Suspense fallback={null}>
            <EditVideoDialog video={video} open={open} onOpenChange={setOpen} opener={button} />
          </Suspense>
        </PieceBoundary>
      ) : null}
    </>
  );
}
