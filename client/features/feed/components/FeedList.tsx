import { startTransition, useEffect, useRef, useState } from 'react';
import { markFirstScreenDrawn } from '#client/lib/after-first-screen';
import { useLocation } from '@tanstack/react-router';
import type { FeedActions, FeedCard } from './types';
import { VideoCard } from './VideoCard';
import { useMediaPreferences } from '#client/lib/media-preferences';
import { cardInView, loadModeFor } from './load-mode';
import { useVideoBytesAllowed } from './video-bytes-gate';

/** Cards added to the page per step: the local copy may hold hundreds, a phone shows a few. */
export const CARDS_PER_STEP = 10;
/**
 * Cards of the first render: a phone shows one or two. The rest of the first step follows in a
 * transition, which React renders in slices, so the first card paints without waiting for ten.
 */
const FIRST_CARDS = 2;
/** Intersection ratios reported in tenths, enough to tell which card shows the most of itself. */
const RATIO_STEPS = Array.from({ length: 11 }, (_, i) => i / 10);

interface Props {
  items: FeedCard[];
  hasMore: boolean;
  loadMore(): void;
  userId: string;
  actions: FeedActions;
  /** The list a card's Watch opens the viewer over (client/features/feed/viewer/watch-list.ts). */
  watchList: string;
}

/**
 * The card list with infinite scroll: a sentinel near the end shows the next cards of the local copy,
 * and once all are shown asks the server for an older page (loadMore).
 */
export function FeedList({ items, hasMore, loadMore, userId, actions, watchList }: Props) {
  const listRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  // The card in view; the next one preloads its first segment (load-mode.ts).
  const [current, setCurrent] = useState(0);
  const { dataSaver } = useMediaPreferences();
  // Until the first poster is on screen no card loads video before a tap, as with data saver.
  const videoBytes = useVideoBytesAllowed(items[0]?.poster_url ?? null);
  const [shown, setShown] = useState(FIRST_CARDS);
  const visibleItems = items.slice(0, shown);
  const moreLocal = items.length > shown;
  useSharedLinkTarget(items, shown, setShown);
  useEffect(() => {
    if (!visibleItems.length) return;
    markFirstScreenDrawn();
    if (shown < CARDS_PER_STEP && moreLocal) startTransition(() => setShown((n) => Math.max(n, CARDS_PER_STEP)));
  }, [visibleItems.length, shown, moreLocal]);

  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof IntersectionObserver === 'undefined') return;
    const ratios = new Map<number, number>();
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const i = Number((e.target as HTMLElement).dataset.index);
          if (e.isIntersecting) ratios.set(i, e.intersectionRatio);
          else ratios.delete(i);
        }
        const inView = cardInView(ratios);
        if (inView >= 0) setCurrent(inView);
      },
      { threshold: RATIO_STEPS },
    );
    list.querySelectorAll<HTMLElement>('article[data-index]').forEach((el) => io.observe(el));
    return () => io.disconnect();
  }, [visibleItems.length, items]);

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || (!moreLocal && !hasMore) || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        if (moreLocal) setShown((n) => n + CARDS_PER_STEP);
        else loadMore();
      },
      { rootMargin: '600px 0px' },
    );
    io.observe(sentinel);
    return () => io.disconnect();
  }, [moreLocal, hasMore, loadMore, items.length, shown]);

  return (
    <div className="feed" ref={listRef} aria-label="Videos" role="feed" aria-busy={false}>
      {visibleItems.map((v, i) => (
        <VideoCard
          key={v.id}
          video={v}
          index={i}
          mode={loadModeFor(i, current, dataSaver || !videoBytes)}
          own={v.user_id === userId}
          actions={actions}
          watchList={watchList}
        />
      ))}
      {moreLocal || hasMore ? <div ref={sentinelRef} className="feed-sentinel" aria-hidden="true" /> : null}
    </div>
  );
}

/**
 * A link to a card (/home#video-ID: a shared link, a tapped notification) scrolls to it once the card
 * is in the list: once per navigation, so a later sync does not pull the page back to it, and a
 * notification tapped while the feed is open scrolls as well.
 */
function useSharedLinkTarget(items: FeedCard[], shown: number, setShown: (n: number) => void): void {
  const hash = useLocation({ select: (l) => l.hash.replace(/^#/, '') });
  const visit = useLocation({ select: (l) => l.state.key ?? l.state.__TSR_key ?? l.href });
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (done.current === visit || !hash.startsWith('video-')) return;
    const id = decodeURIComponent(hash.slice('video-'.length));
    const index = items.findIndex((v) => v.id === id);
    if (index < 0) return;
    if (index >= shown) {
      setShown(index + 1);
      return;
    }
    done.current = visit;
    document.getElementById(`video-${id}`)?.scrollIntoView({ block: 'start' });
  }, [hash, visit, items, shown, setShown]);
}
