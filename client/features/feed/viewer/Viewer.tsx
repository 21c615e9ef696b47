import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMediaPreferences } from '#client/lib/media-preferences';
import { CloseIcon } from '#client/ui/icons';
import type { FeedActions, FeedCard } from '../components/types';
import { slideLoadMode } from './slide-load-mode';
import { ViewerSlide } from './ViewerSlide';
import { useSlideInView } from './useSlideInView';
import { useWheelSteps } from './useWheelSteps';

interface Props {
  items: FeedCard[];
  hasMore: boolean;
  loadMore(): void;
  start: number;
  userId: string;
  actions: FeedActions;
  onClose(): void;
}

/** Slides this far from the one in view hold their video and overlay; farther ones are empty screens. */
const RENDERED_AROUND = 2;
/** Asks for the list's next page this many videos before its end. */
const MORE_BEFORE_END = 3;

const NEXT_KEYS = new Set(['ArrowDown', 'PageDown', 'j']);
const PREVIOUS_KEYS = new Set(['ArrowUp', 'PageUp', 'k']);

/**
 * ArrowUp / ArrowDown, PageUp / PageDown and j / k move one video (a swipe scrolls natively, the wheel
 * moves one video a gesture: useWheelSteps.ts);
 * Escape closes the viewer (the open menu closes first). Keys in a field or a dialog are theirs.
 */
function onKeys(go: (delta: number) => void, close: () => void) {
  return (e: KeyboardEvent) => {
    if (e.defaultPrevented) return;
    if (e.altKey || e.ctrlKey || e.metaKey || (e.target as Element).closest('input, textarea, select, [role="dialog"]')) return;
    if (e.key === 'Escape' && !(e.target as Element).closest('.viewer-menu')) return close();
    const delta = NEXT_KEYS.has(e.key) ? 1 : PREVIOUS_KEYS.has(e.key) ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    go(delta);
  };
}

/**
 * Tab stays in the viewer: the member layout's header and navigation lie hidden under it. Focus may
 * still go to a dialog (comments, report) or a toast, which sit over it.
 */
function useKeepFocusIn(scroller: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onFocus = (e: FocusEvent) => {
      const to = e.target as Element | null;
      const viewer = scroller.current?.parentElement;
      if (!viewer || !to || viewer.contains(to) || to.closest('[role="dialog"], [role="alertdialog"], [data-sonner-toaster]')) return;
      scroller.current?.focus({ preventScroll: true });
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [scroller]);
}

/** The full-screen vertical viewer (docs/pwa.md, "Viewer"): one video a screen, snapped. */
export function Viewer({ items, hasMore, loadMore, start, userId, actions, onClose }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const { dataSaver } = useMediaPreferences();
  const [muted, setMuted] = useState(false);
  const soundRefused = useCallback(() => setMuted(true), []);
  const ids = items.map((v) => v.id);
  const { current, go } = useSlideInView(scroller, ids, start);
  const shown = items[current];
  const navigate = useNavigate();

  useEffect(() => scroller.current?.focus({ preventScroll: true }), []);
  useKeepFocusIn(scroller);
  useWheelSteps(scroller, go);
  // On the document, not the viewer's element: a slide that scrolls out is emptied, and the focus
  // it held falls back to the page's body, where the keys must still move the viewer.
  useEffect(() => {
    const keys = onKeys(go, onClose);
    document.addEventListener('keydown', keys);
    return () => document.removeEventListener('keydown', keys);
  }, [go, onClose]);
  useEffect(() => {
    if (hasMore && current >= items.length - MORE_BEFORE_END) loadMore();
  }, [current, items.length, hasMore, loadMore]);
  // The address names the video in view, so a link copied from it opens that one; Back still leaves the viewer.
  const shownId = shown?.id;
  useEffect(() => {
    if (shownId) void navigate({ to: '/watch/$videoId', params: { videoId: shownId }, search: (s) => s, replace: true, resetScroll: false });
  }, [shownId, navigate]);

  return (
    <div className="viewer" role="region" aria-label="Video viewer">
      <div className="viewer-scroller" ref={scroller} tabIndex={-1} aria-label="Videos">
        {items.map((v, i) =>
          Math.abs(i - current) <= RENDERED_AROUND ? (
            <ViewerSlide
              key={v.id}
              video={v}
              index={i}
              active={i === current}
              mode={slideLoadMode(i, current, dataSaver)}
              own={v.user_id === userId}
              muted={muted}
              onSoundRefused={soundRefused}
              actions={actions}
            />
          ) : (
            <div key={v.id} className="viewer-slide" aria-hidden="true" />
          ),
        )}
      </div>
      <div className="viewer-top">
        <button type="button" className="viewer-round" aria-label="Close viewer" onClick={onClose}>
          <CloseIcon size={24} />
        </button>
        <button type="button" className="viewer-round viewer-sound" onClick={() => setMuted((m) => !m)}>
          {muted ? 'Unmute' : 'Mute'}
        </button>
      </div>
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {shown ? `Video ${current + 1} of ${items.length}: ${shown.title} by ${shown.user_name?.trim() || 'Unknown User'}` : ''}
      </p>
    </div>
  );
}
