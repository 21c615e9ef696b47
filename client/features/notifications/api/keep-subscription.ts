import { useEffect } from 'react';
import { registerThisDeviceAgain } from '#client/lib/push-subscription';
import { afterFirstScreen } from '#client/lib/after-first-screen';

/**
 * Once per signed-in member and page load: this device's push subscription, when it has one, is
 * registered again, so pushes follow whoever is signed in on this browser now. Not in the first
 * screen's way: asking the browser for its permission and subscription costs a slow phone's main thread.
 */
export function useKeepPushSubscription(userId: string | null): void {
  useEffect(() => {
    if (!userId) return;
    return afterFirstScreen(() => void registerThisDeviceAgain().catch(() => undefined));
  }, [userId]);
}
