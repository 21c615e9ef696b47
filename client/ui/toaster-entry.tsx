import { useEffect } from 'react';
import { Toaster } from 'sonner';
import { toasterReady } from './toast';

/** The product's toast rules: one toast at a time, 5 s, swipe to dismiss, F8 focuses the toast region. */
export default function AppToasterChunk() {
  return (
    <>
      <Toaster
        visibleToasts={1}
        duration={5000}
        hotkey={['F8']}
        theme="dark"
        position="bottom-center"
        closeButton
        containerAriaLabel="Notifications"
        toastOptions={{ className: 'toast' }}
      />
      <Ready />
    </>
  );
}

// A later sibling: its effect runs after the Toaster's, which is where the Toaster subscribes.
function Ready() {
  useEffect(() => toasterReady(), []);
  return null;
}
