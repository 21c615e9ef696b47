import type * as Sonner from 'sonner';

// sonner (about 9 KB gzip) loads after the first screen (see AppToaster.tsx). The code on the
// first screen's path toasts through here; screens loaded later may import sonner directly.

type SonnerToast = typeof Sonner.toast;
type Message = Parameters<SonnerToast>[0];
type Options = Parameters<SonnerToast>[1];

let markReady: () => void = () => undefined;
// sonner drops a toast that no mounted Toaster listens to: toasts wait for the toaster, in order.
const sonner: Promise<typeof Sonner> = new Promise<void>((resolve) => {
  markReady = resolve;
}).then(() => import('sonner'));

let asked = false;
const firstToastListeners = new Set<() => void>();

/**
 * Calls `run` when the first toast is asked for (at once if one was): the toaster, mounted after
 * the first screen, mounts then at the latest. Returns a function that stops listening.
 */
export function onFirstToast(run: () => void): () => void {
  if (asked) {
    run();
    return () => undefined;
  }
  firstToastListeners.add(run);
  return () => firstToastListeners.delete(run);
}

/** Called by the toaster once it listens. */
export function toasterReady(): void {
  markReady();
}

function show(run: (t: SonnerToast) => void): void {
  if (!asked) {
    asked = true;
    for (const listener of firstToastListeners) listener();
    firstToastListeners.clear();
  }
  void sonner.then(({ toast }) => run(toast));
}

export const toast = Object.assign((message: Message, options?: Options) => show((t) => t(message, options)), {
  success: (message: Message, options?: Options) => show((t) => t.success(message, options)),
  error: (message: Message, options?: Options) => show((t) => t.error(message, options)),
});
