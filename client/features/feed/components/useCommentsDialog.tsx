import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import type { FeedCard } from './types';

// The cards do not need the dialog (and Radix) to show: it is fetched once they are on screen
// (the effect below), off the first load but in before the first tap on a comments button.
const loadCommentsDialog = () => import('../../comments/components/comments-dialog-entry');
const CommentsDialog = lazy(loadCommentsDialog);

/** The comments dialog of a screen with cards: `open` for the cards' actions, `dialog` to render. */
export function useCommentsDialog(): { open(video: FeedCard): void; dialog: ReactNode } {
  const [commentsFor, setCommentsFor] = useState<FeedCard | null>(null);
  // Mounted from the first opening on, so closing runs Radix's close (focus back to the opener).
  const [used, setUsed] = useState(false);
  const open = useCallback((v: FeedCard) => {
    setUsed(true);
    setCommentsFor(v);
  }, []);
  useEffect(() => {
    void loadCommentsDialog().catch(() => undefined);
  }, []);
  const dialog = used ? (
    <Suspense fallback={null}>
      <CommentsDialog video={commentsFor} onClose={() => setCommentsFor(null)} />
    </Suspense>
  ) : null;
  return { open, dialog };
}
