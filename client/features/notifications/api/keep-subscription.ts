import { useEffect } from 'react';
import { registerThisDeviceAgain } from '#client/lib/push-subscription';

/**
 * Once per signed-in member and page load: this device's push subscription, when it has one, is
 * registered again, so pushes follow whoever is signed in on this browser now.
 */
export function useKeepPushSubscription(userId: string | null): void {
  useEffect(() => {
    if (userId) registerThisDeviceAgain().catch(() => undefined);
  }, [userId]);
}
