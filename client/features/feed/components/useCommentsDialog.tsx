import { useEffect, type ReactNode } from 'react';
import { useDialogTarget } from '#client/ui/useDialogTarget';
import { afterFirstScreen } from '#client/lib/after-first-screen';
import { lazyPiece, PieceBoundary } from '#client/ui/lazy-piece';
import type { FeedCard } from './types';

// The cards do not need the dialog (and Radix) to show: it is fetched once they are on screen
// (the effect below, once the first cards are drawn), off the first load but in before the first
// tap on a comments button.
const loadCommentsDialog = () => import('../../comments/components/comments-dialog-entry');
const { Piece: CommentsDialog, retry: retryCommentsDialog } = lazyPiece(loadCommentsDialog);

/** The comments dialog of a screen with cards: `open` for the cards' actions, `dialog` to render. */
export function useCommentsDialog(): { open(video: FeedCard): void; dialog: ReactNode } {
  const { target, used, open, close, onFailed } = useDialogTarget<FeedCard>(retryCommentsDialog);
  useEffect(() => afterFirstScreen(() => void loadCommentsDialog().catch(() => undefined)), []);
  const dialog = used ? (
    <PieceBoundary what="the comments" onFailed={onFailed}>
      <CommentsDialog video={target} onClose={close} />
    </PieceBoundary>
  ) : null;
  return { open, dialog };
}
