import { useEffect, useState } from 'react';
import { afterFirstScreen } from '#client/lib/after-first-screen';
import { onFirstToast } from './toast';
import { lazyPiece, LoadWhenOnline } from './lazy-piece';

// The toaster and sonner come in their own chunk, off the first screen's critical path; toasts
// asked for before it is mounted wait for it (toast.ts), also while its chunk cannot come (offline on
// a first visit): it is loaded again when the network is back.
const { Piece: Toaster, retry: retryToaster } = lazyPiece(() => import('./toaster-entry'));

/**
 * Mounted once the first screen is drawn (client/lib/after-first-screen.ts), or at the first toast
 * if that comes sooner: its chunk and sonner stay off a slow phone's way to the first card. Never in
 * the first render: the prerendered pages (scripts/build/prerender-plugin.ts) have no toaster in
 * their HTML, so hydration must not find one either.
 */
export function AppToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const mount = () => setMounted(true);
    const stopWaiting = afterFirstScreen(mount);
    const stopListening = onFirstToast(mount);
    return () => {
      stopWaiting();
      stopListening();
    };
  }, []);
  if (!mounted) return null;
  return (
    <LoadWhenOnline fallback={null} retry={retryToaster}>
      <Toaster />
    </LoadWhenOnline>
  );
}
