import { useEffect } from 'react';
import { afterFirstScreen } from '#client/lib/after-first-screen';

type BadgingNavigator = Navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/**
 * The installed app's icon shows the unread count (Badging API). Browsers without it, or a page
 * not allowed to set it, change nothing: the bell says the same. Set once the first screen is
 * drawn: the call waits on the browser, which a slow phone's first screen should not.
 */
export function useAppBadge(unread: number | null): void {
  useEffect(() => {
    if (unread === null) return;
    return afterFirstScreen(() => {
      const nav = navigator as BadgingNavigator;
      const set = unread > 0 ? nav.setAppBadge?.(unread) : nav.clearAppBadge?.();
      set?.catch(() => undefined);
    });
  }, [unread]);
}
