import { lazy, Suspense, useEffect, useState } from 'react';

// The toaster and sonner come in their own chunk, off the first screen's critical path; toasts
// asked for before it is mounted wait for it (toast.ts).
const Toaster = lazy(() => import('./toaster-entry'));

/**
 * Mounted only after the first render: the prerendered pages (scripts/build/prerender-plugin.ts)
 * have no toaster in their HTML, so hydration must not find one either.
 */
export function AppToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
