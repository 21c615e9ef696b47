import { useEffect } from 'react';
import { memberHttp } from '#client/lib/session';
import type { PushSubscriptionBody } from '#sync/rest-api/notifications';

/**
 * Once per signed-in member and page load: this device's push subscription, when it has one, is
 * registered again. The server keeps one row per endpoint and gives it to the caller, so pushes
 * follow whoever is signed in on this browser now, and keys the browser rotated reach the server.
 */
export function useKeepPushSubscription(userId: string | null): void {
  useEffect(() => {
    if (!userId || !('serviceWorker' in navigator) || !('PushManager' in window) || Notification.permission !== 'granted') return;
    void (async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      const sub = await reg?.pushManager.getSubscription();
      if (sub) await memberHttp.json('POST', '/api/push/subscriptions', sub.toJSON() as PushSubscriptionBody);
    })().catch(() => undefined);
  }, [userId]);
}

/**
 * Before signing out: this device stops receiving the member's pushes. The browser's subscription
 * goes first (offline too: its endpoint then answers 410 and the server drops its copy on the next
 * send); the server is told while the session still holds a token. Never blocks the sign-out.
 */
export async function forgetPushSubscription(): Promise<void> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return;
  try {
    const sub = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
    if (!sub) return;
    const { endpoint } = sub;
    await sub.unsubscribe();
    await memberHttp.json('DELETE', '/api/push/subscriptions', { endpoint });
  } catch {
    // Offline or already gone: the push service's 410 cleans the server's copy.
  }
}
