import { useEffect, useState } from 'react';
import { afterFirstScreen } from '#client/lib/after-first-screen';
import { lazyPiece, LoadWhenOnline } from '../lazy-piece';

const { Piece: AdSlot, retry: retryAdSlot } = lazyPiece<{ placement: 'auth' | 'home' }>(() => import('./AdSlot').then((m) => ({ default: m.AdSlot })));

/**
 * The ad slot for the feed, whose first screen does not wait for the ad code: it is fetched once the
 * first cards are drawn (client/lib/after-first-screen.ts). Until it is in, the
 * empty space an unfilled AdSlot shows stands in its place (kept inline: a shared module would be
 * one more chunk on the feed's path), so nothing moves when it arrives, and while its chunk cannot
 * come (offline on a first visit).
 */
export function LazyAdSlot({ placement }: { placement: 'auth' | 'home' }) {
  const [wanted, setWanted] = useState(false);
  useEffect(() => afterFirstScreen(() => setWanted(true)), []);
  const empty = <aside className={`ad-slot ad-${placement}`} aria-label="Advertisement" />;
  if (!wanted) return empty;
  return (
    <LoadWhenOnline fallback={empty} retry={retryAdSlot}>
      <AdSlot placement={placement} />
    </LoadWhenOnline>
  );
}
