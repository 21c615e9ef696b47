import type { PushKeyAnswer, PushSubscriptionBody } from '#sync/rest-api/notifications';
import { memberHttp, onSessionEvents } from './session';

// This device's Web Push subscription (docs/notifications.md, "On the device"): the browser's
// pushManager holds it, the server keeps a copy to send to. /profile turns it on and off, the bell
// registers it again at each start, and every way of signing out drops it.

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'PushManager' in window && 'Notification' in window && 'serviceWorker' in navigator;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

const sendToServer = (sub: PushSubscription) => memberHttp.json('POST', '/api/push/subscriptions', sub.toJSON() as PushSubscriptionBody);

/** The worker's registration, or null when none is active yet (the app registers it after load). */
async function registration(waitMs: number): Promise<ServiceWorkerRegistration | null> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

/** base64url (the key as /api/push/key gives it) to the bytes pushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Turns push on for this device: the subscription made with the server's key, then handed to the
 * server. When the server does not take it, the browser's subscription is dropped again, so the
 * switch never shows on for a device nobody sends to.
 */
export async function subscribeThisDevice(): Promise<PushSubscription> {
  const reg = await registration(10_000);
  if (!reg) throw new Error('The app is still installing. Try again in a moment.');
  const { public_key } = await memberHttp.json<PushKeyAnswer>('GET', '/api/push/key');
  let sub: PushSubscription;
  try {
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) });
  } catch {
    throw new Error('This browser could not reach its push service. Try again later.');
  }
  try {
    await sendToServer(sub);
  } catch (e) {
    await sub.unsubscribe().catch(() => false);
    throw e;
  }
  return sub;
}

/** Turns push off for this device: the browser stops first (nothing more arrives), then the server forgets it. */
export async function unsubscribeThisDevice(sub: PushSubscription): Promise<void> {
  const { endpoint } = sub;
  await sub.unsubscribe();
  await memberHttp.json('DELETE', '/api/push/subscriptions', { endpoint });
}

/**
 * This device's subscription, when it has one, registered again for the member signed in now. The
 * server keeps one row per endpoint and gives it to the caller, so keys the browser rotated reach it.
 */
export async function registerThisDeviceAgain(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  const sub = await currentSubscription();
  if (sub) await sendToServer(sub);
}

/**
 * The next member on this browser must get none of the last one's pushes, whichever way the session
 * ended (the header's Sign Out, Sign Out Everywhere, a reset password, a refused refresh). Before a
 * sign-out the server is told while the session still holds a token; after a session ended without
 * one, only the browser's subscription goes (its endpoint then answers 410 and the server drops its
 * copy on the next send). Never holds a sign-out up: failures are left to that 410.
 */
export function forgetPushOnSignOut(): void {
  onSessionEvents({
    signingOut: async () => {
      const sub = await currentSubscription().catch(() => null);
      if (sub) await unsubscribeThisDevice(sub).catch(() => undefined);
    },
    signedOut: () => {
      void currentSubscription()
        .then((sub) => sub?.unsubscribe())
        .catch(() => undefined);
    },
  });
}
