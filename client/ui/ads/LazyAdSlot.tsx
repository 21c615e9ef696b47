import { lazy, Suspense } from 'react';

const AdSlot = lazy(() => import('./AdSlot').then((m) => ({ default: m.AdSlot })));

/**
 * The ad slot for the feed, whose first screen does not wait for the ad code. Until it is in, the
 * empty space an unfilled AdSlot shows stands in its place (kept inline: a shared module would be
 * one more chunk on the feed's path), so nothing moves when it arrives.
 */
export function LazyAdSlot({ placement }: { placement: 'auth' | 'home' }) {
  return (
    <Suspense fallback={<aside className={`ad-slot ad-${placement}`} aria-label="Advertisement" />}>
      <AdSlot placement={placement} />
    </Suspense>
  );
}
