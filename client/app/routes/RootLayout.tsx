import { Outlet } from '@tanstack/react-router';
import { Toaster } from 'sonner';

/** Spec sections 4 and 9: one toast at a time, 5 s, swipe to dismiss, F8 focuses the toast region. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster visibleToasts={1} duration={5000} hotkey={['F8']} theme="dark" position="bottom-center" closeButton
        containerAriaLabel="Notifications" toastOptions={{ className: 'toast' }} />
    </>
  );
}
