import { lazy, Suspense } from 'react';

// The toaster and sonner come in their own chunk, off the first screen's critical path; toasts
// asked for before it is mounted wait for it (toast.ts).
const Toaster = lazy(() => import('./toaster-entry'));

export function AppToaster() {
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
